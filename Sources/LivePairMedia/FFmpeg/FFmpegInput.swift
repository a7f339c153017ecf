internal import CFFmpeg
import LivePairFormats

/// Installs an interrupt callback on `context` that aborts FFmpeg I/O once `flag` is cancelled.
/// The caller keeps `flag` alive for as long as the context exists (the callback holds it unretained).
func installInterrupt(_ context: UnsafeMutablePointer<AVFormatContext>, _ flag: CancellationFlag) {
    context.pointee.interrupt_callback.callback = { opaque in
        guard let opaque else { return 0 }
        return Unmanaged<CancellationFlag>.fromOpaque(opaque).takeUnretainedValue().isCancelled ? 1 : 0
    }
    context.pointee.interrupt_callback.opaque = Unmanaged.passUnretained(flag).toOpaque()
}

/// The main video stream of `format` with an opened decoder for it (automatic threads, errors
/// reported rather than concealed), after checking the stream's size against `limits`.
struct OpenedVideoDecoder {
    /// The stream's index in `format`.
    let streamIndex: Int32
    /// The stream.
    let stream: UnsafeMutablePointer<AVStream>
    /// The codec's name (`h264`, `hevc`, ...).
    let codecName: String
    /// The opened decoder; the caller frees it with `avcodec_free_context`.
    let decoder: UnsafeMutablePointer<AVCodecContext>
    /// The coded width and height the stream declares.
    let codedSize: (width: Int, height: Int)

    /// Finds the best video stream of `format` and opens its decoder.
    init(in format: UnsafeMutablePointer<AVFormatContext>, limits: ParseLimits) throws(MediaError) {
        let index = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        guard index >= 0, UInt32(index) < format.pointee.nb_streams, let stream = format.pointee.streams[Int(index)],
            let parameters = stream.pointee.codecpar
        else { throw .invalidImage(reason: "the movie has no video stream") }
        let name = String(cString: avcodec_get_name(parameters.pointee.codec_id))
        try MediaError.checkDimensions(
            width: Int(parameters.pointee.width), height: Int(parameters.pointee.height), limit: limits.maximumPixels,
            context: "\(name) video stream")
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else { throw .decoderUnavailable(name) }
        var context = avcodec_alloc_context3(codec)
        guard let decoder = context else {
            throw .decodeFailed(code: livepair_averror(ENOMEM), message: "avcodec_alloc_context3")
        }
        do throws(MediaError) {
            try FFmpegCall.check(avcodec_parameters_to_context(decoder, parameters), "avcodec_parameters_to_context")
            decoder.pointee.thread_count = 0
            decoder.pointee.err_recognition |= AV_EF_EXPLODE
            try FFmpegCall.check(avcodec_open2(decoder, codec, nil), "\(name): avcodec_open2")
        } catch {
            avcodec_free_context(&context)
            throw error
        }
        streamIndex = index
        self.stream = stream
        codecName = name
        self.decoder = decoder
        codedSize = (Int(parameters.pointee.width), Int(parameters.pointee.height))
    }
}
