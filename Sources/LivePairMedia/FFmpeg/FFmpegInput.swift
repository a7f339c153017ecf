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

/// Fills in the streams of a just-opened input: `avformat_find_stream_info` (which for H.264
/// decodes frames on one thread to learn the pixel format: about 20 ms of CPU for the 1080p
/// samples), unless the container's header already gave the best video stream's codec and size:
/// QuickTime and MP4 do (`stsd`, `tkhd`, `hvcC`/`avcC`), and the decoder learns the rest from
/// the stream itself.
func findStreamInfoUnlessInHeader(_ format: UnsafeMutablePointer<AVFormatContext>) throws(MediaError) {
    let isQuickTime = format.pointee.iformat.map { String(cString: $0.pointee.name).hasPrefix("mov,") } ?? false
    let index = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
    if isQuickTime, index >= 0, UInt32(index) < format.pointee.nb_streams,
        let parameters = format.pointee.streams[Int(index)]?.pointee.codecpar,
        parameters.pointee.codec_id != AV_CODEC_ID_NONE, parameters.pointee.width > 0, parameters.pointee.height > 0
    {
        return
    }
    try FFmpegCall.check(avformat_find_stream_info(format, nil), "avformat_find_stream_info")
}

/// How an opened decoder spreads its work over the cores.
enum DecoderThreading {
    /// Several frames at once (FFmpeg's frame threads): the best throughput for every frame in
    /// order, at the cost of a frame of delay per thread.
    case frames
    /// One frame at a time, split across the cores (slices, or HEVC's wavefront rows): no delay,
    /// so a single frame comes out as soon as its packet is decoded.
    case slices
    /// `slices` when every picture of the stream decodes on several threads at once: HEVC whose
    /// `hvcC` picture parameter sets all enable wavefronts, as Apple's do. Else `frames`: FFmpeg
    /// 5.1 decodes HEVC tiles (Samsung's motion photos) on one thread, and H.264 from phones has
    /// one slice per picture, so slice threads would leave the other cores idle.
    case slicesWhenPicturesSplit

    /// `slicesWhenPicturesSplit` resolved for the stream `parameters` describe.
    func resolved(for parameters: UnsafePointer<AVCodecParameters>) -> DecoderThreading {
        guard self == .slicesWhenPicturesSplit else { return self }
        return Self.picturesSplit(parameters) ? .slices : .frames
    }

    /// True for HEVC whose decoder configuration (`hvcC`, as MP4 and QuickTime store it) holds
    /// picture parameter sets that all enable wavefronts (FFmpeg's HEVC slice threads split only
    /// wavefront rows, not tiles).
    static func picturesSplit(_ parameters: UnsafePointer<AVCodecParameters>) -> Bool {
        guard parameters.pointee.codec_id == AV_CODEC_ID_HEVC, let extradata = parameters.pointee.extradata else {
            return false
        }
        let size = Int(parameters.pointee.extradata_size)
        // An `hvcC` record starts with configurationVersion 1; Annex B extradata starts with 0.
        guard size >= HEVCConfigurationParser.fixedHeaderSize, extradata[0] == 1 else { return false }
        let record = [UInt8](UnsafeBufferPointer(start: extradata, count: size))
        guard let configuration = try? HEVCConfigurationParser.parse(record) else { return false }
        let sets = configuration.pictureParameterSets
        return !sets.isEmpty && sets.allSatisfy(\.entropyCodingSyncEnabled)
    }
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
    /// How the decoder was opened: `frames` or `slices` (`slicesWhenPicturesSplit` resolved).
    let threading: DecoderThreading

    /// Finds the best video stream of `format` and opens its decoder with `threading`; a slice-threaded
    /// decoder gets `sliceThreads` threads when given, else FFmpeg's automatic count (one per core plus one).
    init(
        in format: UnsafeMutablePointer<AVFormatContext>, limits: ParseLimits, threading: DecoderThreading = .frames,
        sliceThreads: Int? = nil
    ) throws(MediaError) {
        let index = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        guard index >= 0, UInt32(index) < format.pointee.nb_streams, let stream = format.pointee.streams[Int(index)],
            let parameters = stream.pointee.codecpar
        else { throw .invalidImage(reason: "the movie has no video stream") }
        let name = FFmpegCodecName.of(parameters)
        try MediaError.checkDimensions(
            width: Int(parameters.pointee.width), height: Int(parameters.pointee.height), limit: limits.maximumPixels,
            context: "\(name) video stream")
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else { throw .decoderUnavailable(name) }
        let threading = threading.resolved(for: parameters)
        var context = avcodec_alloc_context3(codec)
        guard let decoder = context else {
            throw .decodeFailed(code: livepair_averror(ENOMEM), message: "avcodec_alloc_context3")
        }
        do throws(MediaError) {
            try FFmpegCall.check(avcodec_parameters_to_context(decoder, parameters), "avcodec_parameters_to_context")
            decoder.pointee.thread_count = threading == .slices ? Int32(clamping: sliceThreads ?? 0) : 0
            decoder.pointee.thread_type = threading == .slices ? FF_THREAD_SLICE : FF_THREAD_FRAME | FF_THREAD_SLICE
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
        self.threading = threading
    }
}
