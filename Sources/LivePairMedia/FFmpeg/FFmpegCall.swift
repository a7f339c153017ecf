internal import CFFmpeg

/// The one place where FFmpeg return codes become `MediaError`s.
enum FFmpegCall {
    /// Silences FFmpeg's own logging once per process: failures are reported through
    /// `MediaError`, and corrupt tiles must not spam standard error.
    private static let quietLogging: Void = { av_log_set_level(AV_LOG_QUIET) }()

    /// Makes sure FFmpeg is configured before its first use.
    static func prepare() { _ = quietLogging }

    /// Returns `code` when it is not negative; otherwise throws `decodeFailed` naming `operation`.
    @discardableResult
    static func check(_ code: Int32, _ operation: String) throws(MediaError) -> Int32 {
        guard code < 0 else { return code }
        throw .decodeFailed(code: code, message: "\(operation): \(message(for: code))")
    }

    /// FFmpeg's description of an error code.
    static func message(for code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        buffer.withUnsafeMutableBufferPointer { pointer in
            livepair_av_strerror(code, pointer.baseAddress, pointer.count - 1)
        }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// True when `code` is `AVERROR(EAGAIN)`.
    static func isAgain(_ code: Int32) -> Bool { code == livepair_averror_eagain() }

    /// True when `code` is `AVERROR_EOF`.
    static func isEndOfFile(_ code: Int32) -> Bool { code == livepair_averror_eof() }
}
