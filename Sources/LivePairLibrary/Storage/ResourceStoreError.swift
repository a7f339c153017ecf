import LivePairS3

/// Why the resource store could not do what was asked.
public enum ResourceStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A system call on `path` failed; `reason` is the C library's text.
    case io(path: String, reason: String)
    /// No resource with this digest is stored.
    case notFound(ContentDigest)
    /// The source file changed size while it was being stored (it was being written to).
    case sourceChanged(path: String)
    /// The object store failed (unreachable, access denied, missing bucket...): the S3 error names
    /// the endpoint, bucket and key, never the secret.
    case objectStore(S3Error)

    /// A sentence for logs and the command line.
    public var description: String {
        switch self {
        case .io(let path, let reason): return "\(path): \(reason)"
        case .notFound(let digest): return "no stored resource has the digest \(digest)"
        case .sourceChanged(let path): return "\(path) changed while it was being stored"
        case .objectStore(let error): return error.description
        }
    }
}
