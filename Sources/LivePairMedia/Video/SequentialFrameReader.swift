internal import CFFmpeg
public import LivePairFormats
import Glibc

/// Decodes the frames of a movie's main video stream one after the other, in presentation
/// order, each converted to RGBA and scaled to a fixed size by libswscale.
///
/// Frames are decoded on demand: each `next()` reads and decodes only as many packets as the
/// next frame needs, so a consumer that stops early pays only for what it took. Frames the
/// container's edit list hides are dropped by libavcodec (as `ffprobe -show_frames` does), so the
/// presentation times match ffprobe's `pts_time`.
///
/// Threads: a stream whose pictures split across threads (HEVC with wavefronts or tiles, as
/// Apple's movies are) is decoded with slice threads, one picture at a time over all the cores,
/// and from the second `next()` on the following frame is decoded ahead (`FrameReadAhead`)
/// while the caller converts the current one; other streams (H.264 with one slice per picture)
/// use frame threads, several pictures at once. So after a cancel an HEVC reader's decoding
/// ends with the picture in progress (about 10 ms for 1920x1440 on two cores) instead of the
/// three pictures frame threads hold in flight.
///
/// Decoding is strict, like `VideoFrameDecoder`: a rejected packet or a frame marked corrupt
/// throws `MediaError.decodeFailed`. Everything FFmpeg allocates is freed in `deinit`: at once
/// after the last frame; when the reader is dropped earlier (a cancelled iteration) with frames
/// in flight or a frame being read ahead, on `DecoderRelease`'s queue, since freeing waits for
/// them.
///
/// A reader is not `Sendable`: one consumer owns it and calls `next()` from one task at a time.
/// The cancellation flag may be set from any thread; FFmpeg's interrupt callback polls it during
/// I/O and `next()` checks it between packets and frames.
public final class SequentialFrameReader {
    /// Width of every frame returned, in pixels (as stored: no display rotation applied).
    public private(set) var width: Int
    /// Height of every frame returned, in pixels.
    public private(set) var height: Int
    /// FFmpeg's short codec name (`"hevc"`, `"h264"`, ...).
    public private(set) var codecName: String
    /// The coded width of the stream.
    public private(set) var codedWidth: Int
    /// The coded height of the stream.
    public private(set) var codedHeight: Int
    /// How many frames have been returned so far.
    public private(set) var framesDecoded = 0
    /// True when the decoder splits each picture across threads (slice threads, the next frame
    /// decoded ahead); false when it decodes several pictures at once (frame threads).
    public var usesSliceThreads: Bool { readAhead != nil }

    private let cancellation: CancellationFlag
    private let state: SequentialDecodeState
    /// The frame being converted.
    private var frame: UnsafeMutablePointer<AVFrame>?
    /// Decodes the next frame while the caller converts this one (slice-threaded decoders).
    private var readAhead: FrameReadAhead?
    private var ticksPerSecond: Double
    /// True after the last frame or a throw.
    private var done = false
    /// How many times `next()` or `nextPlanar()` was called.
    private var calls = 0

    /// Slice threads of a wavefront decoder: two per online core. FFmpeg 5.1 hands each CTB row
    /// to a thread that waits on the row above for every CTB (a few microseconds each), so with its
    /// automatic count (one per core plus one) the cores idle whenever a waiting thread is woken
    /// late; more threads keep one ready. Measured on 2 cores without real-time priority: all
    /// frames of the Apple HEVC movies 0.99x to 1.10x ffmpeg net of its start-up against 1.11x to
    /// 1.19x (docs/benchmarks.md, load). The single-frame decode keeps FFmpeg's count.
    static let sliceThreadCount = min(2 * max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))), 16)

    /// Opens the movie at `path` and its video decoder. Frames are scaled to `width` x `height`
    /// when both are given, else to the coded size.
    ///
    /// - Throws: `MediaError` when the file cannot be opened, has no video stream, is larger than
    ///   `limits.maximumPixels`, or when `cancellation` is already set (`.cancelled`).
    public convenience init(
        path: String, width: Int? = nil, height: Int? = nil, limits: ParseLimits = .default,
        cancellation: CancellationFlag = CancellationFlag()
    ) throws(MediaError) {
        try self.init(
            path: path, width: width, height: height, limits: limits, cancellation: cancellation,
            threading: .slicesWhenPicturesSplit)
    }

    /// As `init(path:width:height:limits:cancellation:)`, with the decoder's threads chosen by
    /// `threading` (tests compare the two kinds).
    init(
        path: String, width: Int?, height: Int?, limits: ParseLimits, cancellation: CancellationFlag,
        threading: DecoderThreading
    ) throws(MediaError) {
        FFmpegCall.prepare()
        self.cancellation = cancellation
        state = SequentialDecodeState(cancellation: cancellation)
        if cancellation.isCancelled { throw .cancelled }
        guard let allocated = avformat_alloc_context() else {
            throw .decodeFailed(code: livepair_averror(ENOMEM), message: "avformat_alloc_context")
        }
        // The flag is retained by `state`, which outlives the format context (`state.free()`).
        installInterrupt(allocated, cancellation)
        var context: UnsafeMutablePointer<AVFormatContext>? = allocated
        let opened = FileSystemPath.withCString(path) { avformat_open_input(&context, $0, nil, nil) }
        // From here on `deinit` frees whatever was allocated, even when init throws below.
        state.formatContext = context
        ticksPerSecond = 1
        self.width = 1
        self.height = 1
        codecName = ""
        codedWidth = 0
        codedHeight = 0
        if cancellation.isCancelled { throw .cancelled }
        try FFmpegCall.check(opened, "avformat_open_input")
        guard let format = state.formatContext else {
            throw .decodeFailed(code: livepair_averror_invaliddata(), message: "avformat_open_input returned no context")
        }
        try findStreamInfoUnlessInHeader(format)
        if cancellation.isCancelled { throw .cancelled }
        let video = try OpenedVideoDecoder(
            in: format, limits: limits, threading: threading, sliceThreads: Self.sliceThreadCount)
        state.codecContext = video.decoder
        state.threading = video.threading
        let stream = video.stream, name = video.codecName, index = video.streamIndex
        let coded = video.codedSize
        let outputWidth = width ?? coded.0, outputHeight = height ?? coded.1
        try MediaError.checkDimensions(
            width: outputWidth, height: outputHeight, limit: limits.maximumPixels, context: "output frame")
        let timeBase = stream.pointee.time_base
        guard timeBase.num > 0, timeBase.den > 0 else {
            throw .invalidImage(reason: "the video stream has time base \(timeBase.num)/\(timeBase.den)")
        }
        if cancellation.isCancelled { throw .cancelled }
        state.packet = av_packet_alloc()
        frame = av_frame_alloc()
        guard state.packet != nil, frame != nil else {
            throw .decodeFailed(code: livepair_averror(ENOMEM), message: "av_packet_alloc/av_frame_alloc")
        }
        if video.threading == .slices { readAhead = try FrameReadAhead() }
        state.streamIndex = index
        state.codecName = name
        ticksPerSecond = Double(timeBase.den) / Double(timeBase.num)
        self.width = outputWidth
        self.height = outputHeight
        codecName = name
        codedWidth = coded.0
        codedHeight = coded.1
    }

    /// Opens the movie embedded in the file at `path` (a motion photo's video): `length` bytes
    /// starting at `offset`, read through FFmpeg's `subfile` protocol, as `VideoFrameDecoder`'s
    /// `decodeFrame(path:embeddedAt:length:at:)` does. Otherwise as `init(path:width:height:limits:cancellation:)`.
    public convenience init(
        path: String, embeddedAt offset: UInt64, length: UInt64, width: Int? = nil, height: Int? = nil,
        limits: ParseLimits = .default, cancellation: CancellationFlag = CancellationFlag()
    ) throws(MediaError) {
        guard length > 0 else { throw .invalidImage(reason: "\(path): the embedded movie is empty") }
        let (end, overflow) = offset.addingReportingOverflow(length)
        guard !overflow else { throw .invalidImage(reason: "\(path): the embedded movie's range overflows") }
        try self.init(
            path: FFmpegInputURL.embedded(in: path, range: offset..<end), width: width, height: height, limits: limits,
            cancellation: cancellation)
    }

    deinit {
        av_frame_free(&frame)
        let state = state
        if let readAhead, readAhead.isPending {
            // A frame is being decoded ahead: it finishes (or stops at the cancel) on the release
            // queue, and whoever dropped the reader (a cancelled iteration) goes on at once.
            DecoderRelease.release {
                readAhead.waitUntilIdle()
                state.free()
            }
        } else if state.hasFramesInFlight {
            // Frames may be decoding on FFmpeg's frame threads: they finish on the release queue.
            DecoderRelease.release { state.free() }
        } else {
            state.free()
        }
    }

    /// The next frame in presentation order, or nil after the last one.
    ///
    /// - Throws: `MediaError.cancelled` once the cancellation flag is set; `decodeFailed` for
    ///   damaged data. After a throw the reader returns nil.
    public func next() throws(MediaError) -> DecodedVideoFrame? {
        try advance { frame throws(MediaError) in try convert(frame) }
    }

    /// The next frame in presentation order as planar `yuv420p` at the output size (converted
    /// straight from the decoded frame by libswscale, keeping the stream's matrix and range; no
    /// RGBA step), with its presentation time; nil after the last one. Calls may be mixed with
    /// `next()`: each returns the following frame.
    ///
    /// - Throws: as `next()`.
    public func nextPlanar() throws(MediaError) -> (image: PlanarPixelBuffer, presentationTime: Double)? {
        try advance { frame throws(MediaError) in
            let (planes, time) = try checkedPlanes(frame)
            let image = try PlanarConversion.convert(
                planes, width: width, height: height, isFullRange: false,
                filter: width < planes.width || height < planes.height ? .area : .bilinear)
            framesDecoded += 1
            return (image, time)
        }
    }

    /// Decodes until the next frame and hands it to `produce`.
    private func advance<Output>(
        _ produce: (UnsafeMutablePointer<AVFrame>) throws(MediaError) -> Output
    ) throws(MediaError) -> Output? {
        guard !done, let frame else { return nil }
        calls += 1
        do throws(MediaError) {
            let decoded: Bool
            if let readAhead, readAhead.isPending {
                decoded = try readAhead.finish(into: frame)
            } else {
                decoded = try state.decodeNext(into: frame)
            }
            guard decoded else {
                done = true
                return nil
            }
            defer { av_frame_unref(frame) }
            // Nobody waits for a frame decoded after the cancel: do not convert it.
            if cancellation.isCancelled { throw .cancelled }
            // From the second call on (a caller reading the frames in turn), decode the next frame
            // while this one is converted.
            if calls > 1, let readAhead, !state.finished { readAhead.start(state) }
            return try produce(frame)
        } catch {
            done = true
            throw error
        }
    }

    /// Checks a decoded frame and converts it to RGBA at the output size.
    private func convert(_ frame: UnsafeMutablePointer<AVFrame>) throws(MediaError) -> DecodedVideoFrame {
        let (planes, time) = try checkedPlanes(frame)
        let frameWidth = planes.width, frameHeight = planes.height
        let reduces = width < frameWidth || height < frameHeight
        let padded = try PixelConversion.convertToPaddedBuffer(
            planes, format: .rgba8, width: width, height: height, filter: reduces ? .area : .bilinear)
        let image = try padded.cropped(x: 0, y: 0, width: padded.width, height: padded.height, packing: true)
        framesDecoded += 1
        return DecodedVideoFrame(
            image: image, presentationTime: time, codedWidth: frameWidth, codedHeight: frameHeight, codecName: codecName,
            colour: ColourDescription(frame: frame))
    }

    /// Checks a decoded frame; returns its planes and presentation time.
    private func checkedPlanes(_ frame: UnsafeMutablePointer<AVFrame>) throws(MediaError) -> (SourcePlanes, Double) {
        if frame.pointee.decode_error_flags != 0 || frame.pointee.flags & AV_FRAME_FLAG_CORRUPT != 0 {
            throw .decodeFailed(code: livepair_averror_invaliddata(), message: "\(codecName): a decoded frame is corrupt")
        }
        let frameWidth = Int(frame.pointee.width), frameHeight = Int(frame.pointee.height)
        guard frameWidth > 0, frameHeight > 0 else {
            throw .decodeFailed(code: livepair_averror_invaliddata(), message: "\(codecName): an empty frame")
        }
        let noValue = livepair_av_nopts_value()
        let timestamp = frame.pointee.best_effort_timestamp != noValue
            ? frame.pointee.best_effort_timestamp : frame.pointee.pts
        let time = timestamp == noValue ? 0 : Double(timestamp) / ticksPerSecond
        return (SourcePlanes(frame: frame, width: frameWidth, height: frameHeight), time)
    }
}
