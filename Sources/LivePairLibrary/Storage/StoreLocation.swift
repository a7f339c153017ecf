import LivePairS3

/// Where a library's resources are, as the command line and the environment name it:
/// `s3://BUCKET/PREFIX` (with an S3 endpoint) or a local directory.
///
/// `--store` / `LIVEPAIR_STORE` give the location, `--s3-endpoint` / `LIVEPAIR_S3_ENDPOINT` the
/// server of an `s3://` one; credentials come from `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and
/// `AWS_REGION`.
public enum StoreLocation: Sendable, Equatable, CustomStringConvertible {
    /// Content-addressed files under a local directory (`DirectoryStore`).
    case directory(String)
    /// Objects in `bucket` under `prefix` (empty, or ending with `/`) on an S3-compatible server.
    case s3(bucket: String, prefix: String)

    /// Reads `s3://BUCKET[/PREFIX]`, `file:///PATH` or a plain path. Throws `invalid` with the
    /// reason for an `s3://` location without a valid bucket name or any other URL scheme.
    public init(_ text: String) throws(StoreLocationError) {
        if text.hasPrefix("s3://") {
            let rest = text.dropFirst("s3://".count)
            let bucket = String(rest.prefix { $0 != "/" })
            var prefix = String(rest.dropFirst(bucket.count).drop { $0 == "/" })
            guard S3Client.isValidBucketName(bucket) else {
                throw .invalid(text, reason: "'\(bucket)' is not a bucket name (3 to 63 lowercase letters, digits, dots, hyphens)")
            }
            if !prefix.isEmpty && !prefix.hasSuffix("/") { prefix += "/" }
            self = .s3(bucket: bucket, prefix: prefix)
        } else if text.hasPrefix("file://") {
            self = .directory(String(text.dropFirst("file://".count)))
        } else if let colon = text.firstIndex(of: ":"), text[..<colon].allSatisfy({ $0.isLetter }), text[colon...].hasPrefix("://") {
            throw .invalid(text, reason: "a store is s3://BUCKET/PREFIX or a directory")
        } else {
            guard !text.isEmpty else { throw .invalid(text, reason: "the location is empty") }
            self = .directory(text)
        }
    }

    /// `s3://BUCKET/PREFIX` or the directory path.
    public var description: String {
        switch self {
        case .directory(let path): return path
        case .s3(let bucket, let prefix): return "s3://\(bucket)/\(prefix)"
        }
    }

    /// Opens the store: a `DirectoryStore`, or an `S3ResourceStore` on `endpoint` (required for
    /// `s3://`) with the credentials of the environment, caching fetched copies in `cacheDirectory`.
    /// Nothing is asked of the server yet: a server that is down or a wrong secret shows on the
    /// first request.
    public func open(s3Endpoint endpoint: String?, cacheDirectory: String) throws(StoreLocationError) -> any ResourceStore {
        switch self {
        case .directory(let path):
            do throws(ResourceStoreError) {
                return try DirectoryStore(directory: path)
            } catch {
                throw .store(error)
            }
        case .s3(let bucket, let prefix):
            guard let endpoint, !endpoint.isEmpty else {
                throw .invalid(description, reason: "an s3:// store needs --s3-endpoint or LIVEPAIR_S3_ENDPOINT")
            }
            let client: S3Client
            do throws(S3Error) {
                client = try S3Client(configuration: try S3Configuration.fromEnvironment(endpoint: endpoint))
            } catch {
                throw .store(.objectStore(error))
            }
            do throws(ResourceStoreError) {
                return try S3ResourceStore(client: client, bucket: bucket, prefix: prefix, cacheDirectory: cacheDirectory)
            } catch {
                throw .store(error)
            }
        }
    }

    /// The store's name for messages: the directory, or `s3://BUCKET/PREFIX on ENDPOINT`.
    public func name(s3Endpoint endpoint: String?) -> String {
        guard case .s3 = self, let endpoint, !endpoint.isEmpty else { return description }
        return "\(description) on \(endpoint)"
    }
}

/// Why a store location cannot be used.
public enum StoreLocationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The location is malformed (a usage error): the text and why.
    case invalid(String, reason: String)
    /// The store cannot be opened (missing credentials, bad endpoint, unwritable directory).
    case store(ResourceStoreError)

    /// A sentence for the command line.
    public var description: String {
        switch self {
        case .invalid(let text, let reason): return "invalid store '\(text)': \(reason)"
        case .store(let error): return error.description
        }
    }
}
