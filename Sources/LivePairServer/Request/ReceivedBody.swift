/// What became of a request's body once it was read.
public enum ReceivedBody: Sendable {
    /// There was none, or the route did not want it (it was read and dropped).
    case none
    /// Written to a temporary file while hashed.
    case spooled(SpooledUpload)
    /// Longer than the route's limit: the rest was read and dropped, nothing kept.
    case tooLarge(limit: Int64)
    /// The temporary file could not be written.
    case failed(String)
}

/// A body streamed to a temporary file: where it is, how long it is and its SHA-256.
public struct SpooledUpload: Sendable {
    /// The temporary file (removed by the server after the response).
    public let path: String
    /// Its length in bytes.
    public let size: Int64
    /// The SHA-256 of its bytes.
    public let sha256: [UInt8]
}
