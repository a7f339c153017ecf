internal import CFFmpeg
import LivePairFormats

/// The transcoder's input: a demuxer opened on a file, closed in `deinit`.
final class TranscodeInput {
    private(set) var context: UnsafeMutablePointer<AVFormatContext>?
    /// Retained so the interrupt callback's unretained pointer stays valid.
    private let cancellation: CancellationFlag

    /// Opens `path` (through the `file:` protocol only), or the movie in its bytes `range` when
    /// given (a motion photo's video), and reads its stream information.
    init(path: String, range: Range<UInt64>? = nil, cancellation: CancellationFlag) throws(MediaError) {
        self.cancellation = cancellation
        guard let allocated = avformat_alloc_context() else {
            throw .decodeFailed(code: livepair_averror(ENOMEM), message: "avformat_alloc_context")
        }
        installInterrupt(allocated, cancellation)
        var opened: UnsafeMutablePointer<AVFormatContext>? = allocated
        // On failure avformat_open_input frees the context and sets the pointer to nil.
        let url = range.map { FFmpegInputURL.embedded(in: path, range: $0) } ?? FFmpegInputURL.file(path)
        let result = FileSystemPath.withCString(url) { avformat_open_input(&opened, $0, nil, nil) }
        context = opened
        if cancellation.isCancelled { throw .cancelled }
        try FFmpegCall.check(result, "avformat_open_input \(path)")
        guard let format = context else {
            throw .decodeFailed(code: livepair_averror_invaliddata(), message: "avformat_open_input returned no context")
        }
        try FFmpegCall.check(avformat_find_stream_info(format, nil), "avformat_find_stream_info")
        if cancellation.isCancelled { throw .cancelled }
    }

    deinit { avformat_close_input(&context) }

    /// The stream at `index`, or nil.
    func stream(_ index: Int32) -> UnsafeMutablePointer<AVStream>? {
        guard let format = context, index >= 0, UInt32(index) < format.pointee.nb_streams else { return nil }
        return format.pointee.streams[Int(index)]
    }
}

/// The transcoder's output: a muxer writing to a file (QuickTime `mov` unless another format is
/// named; `H264MovieWriter` uses `mp4`), freed in `deinit`.
final class TranscodeOutput {
    private(set) var context: UnsafeMutablePointer<AVFormatContext>?
    private let cancellation: CancellationFlag
    private var headerWritten = false
    private var trailerWritten = false

    /// Creates the `formatName` muxer for `path`; the file is opened by `start()`.
    init(path: String, cancellation: CancellationFlag, formatName: String = "mov") throws(MediaError) {
        self.cancellation = cancellation
        var allocated: UnsafeMutablePointer<AVFormatContext>?
        try FFmpegCall.check(
            avformat_alloc_output_context2(&allocated, nil, formatName, path), "avformat_alloc_output_context2")
        context = allocated
        guard let format = context else {
            throw .decodeFailed(code: livepair_averror(ENOMEM), message: "avformat_alloc_output_context2")
        }
        installInterrupt(format, cancellation)
    }

    deinit {
        if let format = context {
            if headerWritten, !trailerWritten { _ = av_write_trailer(format) }
            if format.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 { avio_closep(&format.pointee.pb) }
        }
        avformat_free_context(context)
    }

    /// True when stream codec parameters must carry global headers (`mov` does).
    var needsGlobalHeader: Bool {
        guard let format = context else { return false }
        return format.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0
    }

    /// A new output stream.
    func addStream() throws(MediaError) -> UnsafeMutablePointer<AVStream> {
        guard let format = context, let stream = avformat_new_stream(format, nil) else {
            throw .decodeFailed(code: livepair_averror(ENOMEM), message: "avformat_new_stream")
        }
        return stream
    }

    /// Opens the file at `path` and writes the header. Streams' time bases may change here.
    func start(path: String, muxerOptions: [String: String] = [:]) throws(MediaError) {
        guard let format = context else { return }
        if format.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 {
            try FFmpegCall.check(
                FileSystemPath.withCString(FFmpegInputURL.file(path)) {
                    avio_open2(&format.pointee.pb, $0, AVIO_FLAG_WRITE, &format.pointee.interrupt_callback, nil)
                },
                "avio_open2 \(path)")
        }
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        for (key, value) in muxerOptions.sorted(by: { $0.key < $1.key }) { av_dict_set(&options, key, value, 0) }
        try FFmpegCall.check(avformat_write_header(format, &options), "avformat_write_header")
        headerWritten = true
    }

    /// Writes `packet` (taking its data; the packet is reset).
    func write(_ packet: UnsafeMutablePointer<AVPacket>) throws(MediaError) {
        guard let format = context else { return }
        if cancellation.isCancelled { throw .cancelled }
        try FFmpegCall.check(av_interleaved_write_frame(format, packet), "av_interleaved_write_frame")
    }

    /// Moves every packet `encoder` has ready into the file as packets of `stream`, timestamps
    /// rescaled from `timeBase` (the encoder's); `prepare` sees each packet first.
    func writeEncodedPackets(
        from encoder: UnsafeMutablePointer<AVCodecContext>, timeBase: AVRational,
        using packet: UnsafeMutablePointer<AVPacket>, as stream: UnsafeMutablePointer<AVStream>, label: String,
        prepare: (UnsafeMutablePointer<AVPacket>) -> Void = { _ in }
    ) throws(MediaError) {
        while true {
            let received = avcodec_receive_packet(encoder, packet)
            if FFmpegCall.isAgain(received) || FFmpegCall.isEndOfFile(received) { return }
            try FFmpegCall.check(received, "\(label): avcodec_receive_packet")
            prepare(packet)
            av_packet_rescale_ts(packet, timeBase, stream.pointee.time_base)
            packet.pointee.stream_index = stream.pointee.index
            // The muxer takes ownership of the packet's data and resets it.
            try write(packet)
        }
    }

    /// Writes the index and closes the file.
    func finish() throws(MediaError) {
        guard let format = context, headerWritten, !trailerWritten else { return }
        trailerWritten = true
        try FFmpegCall.check(av_write_trailer(format), "av_write_trailer")
        if format.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 {
            try FFmpegCall.check(avio_closep(&format.pointee.pb), "avio_closep")
        }
    }
}
