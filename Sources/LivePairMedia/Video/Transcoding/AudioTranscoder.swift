internal import CFFmpeg

/// Carries the input's audio stream into the output: AAC packets are copied unchanged; any
/// other codec is decoded, converted to planar float in Swift (`AudioSampleQueue`) and encoded
/// with FFmpeg's native `aac` encoder at the input's sample rate and channel layout.
final class AudioTranscoder {
    let inputIndex: Int32
    let handling: TranscodeResult.AudioHandling

    private let output: TranscodeOutput
    private let outputStream: UnsafeMutablePointer<AVStream>
    private let inputTimeBase: AVRational
    private var decoderContext: UnsafeMutablePointer<AVCodecContext>?
    private var encoderContext: UnsafeMutablePointer<AVCodecContext>?
    private var decoded: UnsafeMutablePointer<AVFrame>?
    private var encoderFrame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var queue = AudioSampleQueue(channelCount: 0)
    /// The next encoder frame's presentation time, in samples (the encoder's time base).
    private var nextPTS: Int64?
    /// The part of the input kept, in seconds of its timeline (nil: all of it); what is kept is
    /// written from time zero.
    private let window: Range<Double>?
    /// The factor every sample is multiplied by (1: unchanged; another value decodes even AAC).
    private let gain: Float

    /// Prepares the output stream for the input audio `stream` (index `index`). With `window`,
    /// only the audio of that part of the input's timeline is written, moved to start at zero:
    /// to the sample when it is encoded, to the packet when AAC is copied (the packets that
    /// start inside the window). With a `gain` other than 1 every sample is scaled by it, so the
    /// audio is encoded (never copied), whatever its codec.
    init(
        input stream: UnsafeMutablePointer<AVStream>, index: Int32, output: TranscodeOutput, window: Range<Double>? = nil,
        gain: Float = 1
    ) throws(MediaError) {
        inputIndex = index
        self.window = window
        self.gain = gain
        self.output = output
        inputTimeBase = stream.pointee.time_base
        guard let parameters = stream.pointee.codecpar else { throw .invalidImage(reason: "audio stream without parameters") }
        guard inputTimeBase.num > 0, inputTimeBase.den > 0 else {
            throw .invalidImage(reason: "the audio stream has time base \(inputTimeBase.num)/\(inputTimeBase.den)")
        }
        outputStream = try output.addStream()
        packet = av_packet_alloc()
        guard packet != nil else { throw .decodeFailed(code: livepair_averror(ENOMEM), message: "av_packet_alloc") }
        if parameters.pointee.codec_id == AV_CODEC_ID_AAC && gain == 1 {
            handling = .copiedAAC
            try FFmpegCall.check(avcodec_parameters_copy(outputStream.pointee.codecpar, parameters), "avcodec_parameters_copy")
            outputStream.pointee.codecpar.pointee.codec_tag = 0
            outputStream.pointee.time_base = inputTimeBase
            return
        }
        handling = .encodedAAC
        let name = FFmpegCodecName.of(parameters)
        guard let decoderCodec = avcodec_find_decoder(parameters.pointee.codec_id) else { throw .decoderUnavailable(name) }
        decoderContext = avcodec_alloc_context3(decoderCodec)
        guard let decoder = decoderContext else {
            throw .decodeFailed(code: livepair_averror(ENOMEM), message: "avcodec_alloc_context3")
        }
        try FFmpegCall.check(avcodec_parameters_to_context(decoder, parameters), "avcodec_parameters_to_context")
        decoder.pointee.pkt_timebase = inputTimeBase
        try FFmpegCall.check(avcodec_open2(decoder, decoderCodec, nil), "\(name): avcodec_open2")

        guard let encoderCodec = avcodec_find_encoder_by_name("aac") else { throw .decoderUnavailable("aac encoder") }
        let sampleRate = decoder.pointee.sample_rate
        let channelCount = Int(decoder.pointee.ch_layout.nb_channels)
        guard sampleRate > 0, (1...8).contains(channelCount) else {
            throw .unsupported("audio of \(channelCount) channels at \(sampleRate) Hz")
        }
        if let rates = encoderCodec.pointee.supported_samplerates {
            var index = 0, supported = false
            while rates[index] != 0 {
                if rates[index] == sampleRate { supported = true }
                index += 1
            }
            guard supported else { throw .unsupported("AAC at \(sampleRate) Hz (no resampling available)") }
        }
        encoderContext = avcodec_alloc_context3(encoderCodec)
        decoded = av_frame_alloc()
        encoderFrame = av_frame_alloc()
        guard let encoder = encoderContext, decoded != nil, encoderFrame != nil else {
            throw .decodeFailed(code: livepair_averror(ENOMEM), message: "avcodec_alloc_context3/av_frame_alloc")
        }
        encoder.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        encoder.pointee.sample_rate = sampleRate
        encoder.pointee.time_base = AVRational(num: 1, den: sampleRate)
        encoder.pointee.bit_rate = Int64(64_000 * channelCount)
        if decoder.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC {
            av_channel_layout_default(&encoder.pointee.ch_layout, Int32(channelCount))
        } else {
            try FFmpegCall.check(
                av_channel_layout_copy(&encoder.pointee.ch_layout, &decoder.pointee.ch_layout), "av_channel_layout_copy")
        }
        if output.needsGlobalHeader { encoder.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        try FFmpegCall.check(avcodec_open2(encoder, encoderCodec, nil), "aac: avcodec_open2")
        try FFmpegCall.check(
            avcodec_parameters_from_context(outputStream.pointee.codecpar, encoder), "avcodec_parameters_from_context")
        outputStream.pointee.time_base = encoder.pointee.time_base
        queue = AudioSampleQueue(channelCount: channelCount)
    }

    deinit {
        av_packet_free(&packet)
        av_frame_free(&encoderFrame)
        av_frame_free(&decoded)
        avcodec_free_context(&encoderContext)
        avcodec_free_context(&decoderContext)
    }

    /// Copies or transcodes one packet of the audio stream.
    func handle(_ input: UnsafeMutablePointer<AVPacket>) throws(MediaError) {
        guard let decoder = decoderContext else {
            if let window {
                let noValue = livepair_av_nopts_value()
                let stamp = input.pointee.pts != noValue ? input.pointee.pts : input.pointee.dts
                guard stamp != noValue else { return }
                let seconds = Double(stamp) * Double(inputTimeBase.num) / Double(inputTimeBase.den)
                guard seconds >= window.lowerBound - 1e-6, seconds < window.upperBound else { return }
                let shift = Int64((window.lowerBound * Double(inputTimeBase.den) / Double(inputTimeBase.num)).rounded())
                if input.pointee.pts != noValue { input.pointee.pts -= shift }
                if input.pointee.dts != noValue { input.pointee.dts -= shift }
            }
            av_packet_rescale_ts(input, inputTimeBase, outputStream.pointee.time_base)
            input.pointee.stream_index = outputStream.pointee.index
            input.pointee.pos = -1
            try output.write(input)
            return
        }
        try FFmpegCall.check(avcodec_send_packet(decoder, input), "audio: avcodec_send_packet")
        try drainDecoder()
    }

    /// Flushes the decoder, the queued samples and the encoder.
    func finish() throws(MediaError) {
        guard let decoder = decoderContext, let encoder = encoderContext else { return }
        try FFmpegCall.check(avcodec_send_packet(decoder, nil), "audio: avcodec_send_packet (flush)")
        try drainDecoder()
        if queue.count > 0 { try encodeQueued(count: queue.count) }
        try FFmpegCall.check(avcodec_send_frame(encoder, nil), "aac: avcodec_send_frame (flush)")
        try drainEncoder()
    }

    private func drainDecoder() throws(MediaError) {
        guard let decoder = decoderContext, let encoder = encoderContext, let frame = decoded else { return }
        let frameSize = max(1, Int(encoder.pointee.frame_size))
        while true {
            let received = avcodec_receive_frame(decoder, frame)
            if FFmpegCall.isAgain(received) || FFmpegCall.isEndOfFile(received) { return }
            try FFmpegCall.check(received, "audio: avcodec_receive_frame")
            defer { av_frame_unref(frame) }
            let noValue = livepair_av_nopts_value()
            let stamp = frame.pointee.best_effort_timestamp != noValue ? frame.pointee.best_effort_timestamp : frame.pointee.pts
            let start = stamp == noValue ? (nextPTS ?? 0) : av_rescale_q(stamp, inputTimeBase, encoder.pointee.time_base)
            if let window {
                // Samples are counted on the encoder's clock (1/sample rate): keep those inside the window.
                let rate = Double(encoder.pointee.sample_rate)
                let first = Int64((window.lowerBound * rate).rounded())
                let end = window.upperBound.isFinite ? Int64((window.upperBound * rate).rounded()) : Int64.max / 2
                let count = Int64(frame.pointee.nb_samples)
                let (lower, upper) = (max(0, first - start), min(count, end - start))
                nextPTS = nextPTS ?? 0
                guard lower < upper else { continue }
                try queue.append(frame, keeping: Int(lower)..<Int(upper))
            } else {
                if nextPTS == nil { nextPTS = start }
                try queue.append(frame)
            }
            while queue.count >= frameSize { try encodeQueued(count: frameSize) }
        }
    }

    /// Encodes the first `count` queued samples as one frame.
    private func encodeQueued(count: Int) throws(MediaError) {
        guard let encoder = encoderContext, let frame = encoderFrame else { return }
        av_frame_unref(frame)
        frame.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        frame.pointee.sample_rate = encoder.pointee.sample_rate
        frame.pointee.nb_samples = Int32(count)
        try FFmpegCall.check(av_channel_layout_copy(&frame.pointee.ch_layout, &encoder.pointee.ch_layout), "av_channel_layout_copy")
        try FFmpegCall.check(av_frame_get_buffer(frame, 0), "av_frame_get_buffer")
        try queue.take(count, into: frame, gain: gain)
        let pts = nextPTS ?? 0
        frame.pointee.pts = pts
        nextPTS = pts + Int64(count)
        try FFmpegCall.check(avcodec_send_frame(encoder, frame), "aac: avcodec_send_frame")
        try drainEncoder()
    }

    private func drainEncoder() throws(MediaError) {
        guard let encoder = encoderContext, let packet else { return }
        try output.writeEncodedPackets(
            from: encoder, timeBase: encoder.pointee.time_base, using: packet, as: outputStream, label: "aac")
    }
}
