internal import CTurboJPEG

/// The one place where turbojpeg handles are created, freed and their failures become
/// `MediaError`s.
enum TurboJPEG {
    /// Runs `body` with a new decompressor handle, destroyed afterwards.
    static func withDecompressor<Result>(_ body: (tjhandle) throws(MediaError) -> Result) throws(MediaError) -> Result {
        guard let handle = tjInitDecompress() else {
            throw .decoderUnavailable("JPEG (tjInitDecompress failed: \(globalMessage()))")
        }
        defer { tjDestroy(handle) }
        return try body(handle)
    }

    /// Runs `body` with a new compressor handle, destroyed afterwards.
    static func withCompressor<Result>(_ body: (tjhandle) throws(MediaError) -> Result) throws(MediaError) -> Result {
        guard let handle = tjInitCompress() else {
            throw .encodeFailed(reason: "tjInitCompress failed: \(globalMessage())")
        }
        defer { tjDestroy(handle) }
        return try body(handle)
    }

    /// True when the last failure on `handle` was only a warning (the image was still decoded).
    static func lastFailureIsWarning(_ handle: tjhandle) -> Bool {
        tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue)
    }

    /// turbojpeg's description of the last failure on `handle`.
    static func message(_ handle: tjhandle) -> String {
        guard let text = tjGetErrorStr2(handle) else { return "unknown turbojpeg error" }
        return String(cString: text)
    }

    /// The message of a failure that happened before a handle existed.
    private static func globalMessage() -> String {
        guard let text = tjGetErrorStr2(nil) else { return "unknown turbojpeg error" }
        return String(cString: text)
    }

    /// Throws `decodeFailed` for a failed call on `handle`, unless it was only a warning and
    /// `acceptWarnings` is true.
    static func check(_ result: Int32, _ handle: tjhandle, _ operation: String, acceptWarnings: Bool) throws(MediaError) {
        guard result != 0 else { return }
        if acceptWarnings && lastFailureIsWarning(handle) { return }
        throw .decodeFailed(code: result, message: "\(operation): \(message(handle))")
    }
}
