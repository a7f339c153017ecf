internal import CFFmpeg
import LivePairFormats

/// The FFmpeg side of a `SequentialFrameReader`: the demuxer, the decoder and the packet, and
/// the loop that feeds packets to the decoder until it returns the next frame.
///
/// `@unchecked Sendable` is sound: one thread at a time uses it, handed over with a semaphore or
/// a serial queue (which order the memory accesses): the reader's caller, the reader's
/// read-ahead queue while the caller waits for it, or `DecoderRelease`'s queue once the reader
/// is gone. The cancellation flag is itself thread-safe.
final class SequentialDecodeState: @unchecked Sendable {
    let cancellation: CancellationFlag
    var formatContext: UnsafeMutablePointer<AVFormatContext>?
    var codecContext: UnsafeMutablePointer<AVCodecContext>?
    var packet: UnsafeMutablePointer<AVPacket>?
    var streamIndex: Int32 = -1
    var codecName = ""
    /// How the decoder was opened: with frame threads, frames may be decoding after a call returns.
    var threading = DecoderThreading.frames
    private var endOfInput = false
    /// True once the decoder reported its end, or a call threw.
    private(set) var finished = false
    /// True from the first packet sent to a frame-threaded decoder until it reported its end:
    /// freeing the decoder may then wait for frames its threads are decoding.
    private(set) var hasFramesInFlight = false

    /// A state without contexts yet; the reader's initializer fills them in.
    init(cancellation: CancellationFlag) { self.cancellation = cancellation }

    /// Feeds packets until the decoder returns a frame into `frame`: true with a frame, false
    /// after the last one.
    ///
    /// - Throws: `MediaError.cancelled` once the flag is set (looked at between packets and
    ///   frames); `decodeFailed` for damaged data. After a throw the state returns false.
    func decodeNext(into frame: UnsafeMutablePointer<AVFrame>) throws(MediaError) -> Bool {
        guard !finished, let format = formatContext, let decoder = codecContext, let packet else { return false }
        do throws(MediaError) {
            while true {
                if cancellation.isCancelled { throw .cancelled }
                let received = avcodec_receive_frame(decoder, frame)
                if FFmpegCall.isEndOfFile(received) {
                    finished = true
                    hasFramesInFlight = false
                    return false
                }
                if !FFmpegCall.isAgain(received) {
                    try FFmpegCall.check(received, "\(codecName): avcodec_receive_frame")
                    return true
                }
                // The decoder needs more input.
                if endOfInput {
                    finished = true
                    return false
                }
                let read = av_read_frame(format, packet)
                if cancellation.isCancelled { throw .cancelled }
                if FFmpegCall.isEndOfFile(read) {
                    endOfInput = true
                    try FFmpegCall.check(avcodec_send_packet(decoder, nil), "\(codecName): avcodec_send_packet (flush)")
                    continue
                }
                try FFmpegCall.check(read, "av_read_frame")
                defer { av_packet_unref(packet) }
                guard packet.pointee.stream_index == streamIndex else { continue }
                cancellation.notePieceBegun()
                hasFramesInFlight = threading == .frames
                try FFmpegCall.check(avcodec_send_packet(decoder, packet), "\(codecName): avcodec_send_packet")
            }
        } catch {
            finished = true
            throw error
        }
    }

    /// Frees the packet, the decoder (waiting for the frames its threads are decoding) and the demuxer.
    func free() {
        av_packet_free(&packet)
        avcodec_free_context(&codecContext)
        avformat_close_input(&formatContext)
    }
}
