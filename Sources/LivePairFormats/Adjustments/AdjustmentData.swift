/// An edit's data as PhotoKit's `PHAdjustmentData` holds it: who wrote it (`formatIdentifier`,
/// `formatVersion`) and the editor's own bytes. Bytes of editors LivePair does not know are kept
/// as they are, byte for byte.
public struct AdjustmentData: Sendable, Equatable, Hashable {
    /// The editor's format, reverse-DNS (`com.apple.photo` for Photos' own edits).
    public var formatIdentifier: String
    /// The version of that format (`1.4`, `1.11`, ...).
    public var formatVersion: String
    /// The editor's data (for `com.apple.photo`: raw DEFLATE of a JSON recipe).
    public var data: [UInt8]

    /// Memberwise initializer.
    public init(formatIdentifier: String, formatVersion: String, data: [UInt8]) {
        self.formatIdentifier = formatIdentifier
        self.formatVersion = formatVersion
        self.data = data
    }

    /// Photos' own format identifier.
    public static let photosFormatIdentifier = "com.apple.photo"
}
