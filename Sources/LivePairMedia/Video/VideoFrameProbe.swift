internal import CFFmpeg
import LivePairFormats

/// What libavformat reports about a movie's main video stream. Used to cross-check the
/// pure-Swift QuickTime parser and by deep validation.
public struct VideoStreamInfo: Sendable, Equatable {
    /// FFmpeg's short codec name (`"hevc"`, `"h264"`, ...).
    public let codecName: String
    /// Coded width in pixels (before any display rotation).
    public let width: Int
    /// Coded height in pixels.
    public let height: Int
    /// Average frames per second, or nil when the container does not say.
    public let framesPerSecond: Double?
    /// Start time of the stream in seconds, or nil when unknown.
    public let startTime: Double?
    /// Duration of the stream in seconds, or nil when unknown.
    public let duration: Double?
    /// Display rotation from the track matrix in anticlockwise degrees, -180 to 180, as FFmpeg
    /// reports it (-90 is a quarter turn clockwise; 0 when there is no matrix).
    public let rotationDegrees: Double
    /// Number of frames the container lists, or nil when unknown.
    public let frameCount: Int?
}

/// Opens a movie with libavformat and describes its best video stream.
public struct VideoFrameProbe: Sendable {
    /// A probe.
    public init() {}

    /// Describes the video stream of the movie at `path`; throws `invalidImage` when the file
    /// has no video stream and `decodeFailed` when libavformat cannot read it.
    ///
    /// - Parameter headerOnly: when true, a QuickTime or MP4 file is described from its header
    ///   alone (codec, coded size, rotation, frame rate); `avformat_find_stream_info`, which for
    ///   H.264 decodes frames, runs only for other containers. Start time and duration may
    ///   then be nil.
    public func probe(path: String, headerOnly: Bool = false) throws(MediaError) -> VideoStreamInfo {
        FFmpegCall.prepare()
        var formatContext: UnsafeMutablePointer<AVFormatContext>?
        // The "file:" prefix keeps a path such as "http://..." or "concat:..." from selecting
        // another FFmpeg protocol.
        try FFmpegCall.check(
            FileSystemPath.withCString(FFmpegInputURL.file(path)) { avformat_open_input(&formatContext, $0, nil, nil) },
            "avformat_open_input")
        defer { avformat_close_input(&formatContext) }
        guard let format = formatContext else {
            throw .decodeFailed(code: livepair_averror_invaliddata(), message: "avformat_open_input returned no context")
        }
        if headerOnly {
            try findStreamInfoUnlessInHeader(format)
        } else {
            try FFmpegCall.check(avformat_find_stream_info(format, nil), "avformat_find_stream_info")
        }
        let index = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        guard index >= 0, UInt32(index) < format.pointee.nb_streams, let stream = format.pointee.streams[Int(index)],
            let parameters = stream.pointee.codecpar
        else { throw .invalidImage(reason: "\(path) has no video stream") }

        let timeBase = stream.pointee.time_base
        let noValue = livepair_av_nopts_value()
        func seconds(_ value: Int64) -> Double? {
            guard value != noValue, timeBase.den != 0 else { return nil }
            return Double(value) * Double(timeBase.num) / Double(timeBase.den)
        }
        let rate = stream.pointee.avg_frame_rate.den != 0 ? stream.pointee.avg_frame_rate : stream.pointee.r_frame_rate
        var rotation = 0.0
        var matrixSize = 0
        if let matrix = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &matrixSize), matrixSize >= 36 {
            let degrees = matrix.withMemoryRebound(to: Int32.self, capacity: 9) { av_display_rotation_get($0) }
            if degrees.isFinite { rotation = degrees == 0 ? 0 : degrees }
        }
        return VideoStreamInfo(
            codecName: String(cString: avcodec_get_name(parameters.pointee.codec_id)),
            width: Int(parameters.pointee.width), height: Int(parameters.pointee.height),
            framesPerSecond: rate.den != 0 && rate.num > 0 ? Double(rate.num) / Double(rate.den) : nil,
            startTime: seconds(stream.pointee.start_time), duration: seconds(stream.pointee.duration),
            rotationDegrees: rotation, frameCount: stream.pointee.nb_frames > 0 ? Int(stream.pointee.nb_frames) : nil)
    }
}
