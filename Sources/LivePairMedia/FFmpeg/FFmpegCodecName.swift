internal import CFFmpeg

/// How messages name the codec of a stream.
enum FFmpegCodecName {
    /// FFmpeg's short name of the codec of `parameters` ("hevc", "pcm_s16le"). A codec FFmpeg does
    /// not recognise has the identifier `AV_CODEC_ID_NONE`, which FFmpeg names "none"; it is named
    /// by the stream's four-character tag instead (`unrecognised 'zzzz'`), or `unrecognised` when
    /// the stream has no printable tag.
    static func of(_ parameters: UnsafePointer<AVCodecParameters>) -> String {
        let identifier = parameters.pointee.codec_id
        guard identifier == AV_CODEC_ID_NONE else { return String(cString: avcodec_get_name(identifier)) }
        let tag = parameters.pointee.codec_tag
        let characters = (0..<4).map { UInt8(truncatingIfNeeded: tag >> (8 * $0)) }
        guard tag != 0, characters.allSatisfy({ (0x20...0x7E).contains($0) }) else { return "unrecognised" }
        return "unrecognised '\(String(decoding: characters, as: UTF8.self))'"
    }
}
