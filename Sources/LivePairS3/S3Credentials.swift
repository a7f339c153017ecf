/// An access key pair for S3 request signing (AWS Signature Version 4).
///
/// The secret never appears in a description, a debug description or a mirror (`dump`), so a
/// logged configuration or error cannot leak it.
public struct S3Credentials: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The access key id (public: it names the key in every signed request).
    public let accessKeyID: String
    /// The secret access key.
    public let secretAccessKey: String

    /// Credentials from an explicit key pair.
    public init(accessKeyID: String, secretAccessKey: String) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
    }

    /// The access key id only.
    public var description: String { "S3Credentials(accessKeyID: \(accessKeyID), secretAccessKey: <hidden>)" }

    /// The access key id only.
    public var debugDescription: String { description }

    /// The access key id only.
    public var customMirror: Mirror { Mirror(self, children: ["accessKeyID": accessKeyID], displayStyle: .struct) }
}
