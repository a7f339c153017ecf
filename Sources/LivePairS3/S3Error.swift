/// Why an S3 request failed: what kind of failure, and which operation on which endpoint, bucket
/// and key. Never holds a secret: the description names the endpoint, the bucket, the key, the
/// HTTP status and the server's error code and message only.
public struct S3Error: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kinds of failure a caller may act on.
    public enum Kind: Sendable, Equatable {
        /// No credentials were configured (the detail names the missing variable).
        case missingCredentials
        /// The configuration or an argument cannot make a valid request (bad endpoint, bucket or key).
        case invalidRequest
        /// 403: the signature does not match (wrong secret), the key id is unknown, or access is denied.
        case accessDenied
        /// 404 `NoSuchBucket`: the bucket does not exist.
        case noSuchBucket
        /// 404: the object does not exist.
        case noSuchKey
        /// 412: a precondition failed; for a write-once PUT (`If-None-Match: *`), the object exists.
        case preconditionFailed
        /// 416: the requested byte range starts past the object's end.
        case rangeNotSatisfiable
        /// 400 `BadDigest` or `XAmzContentSHA256Mismatch`: the bytes the server received do not match
        /// the SHA-256 sent with them (the file changed while it was sent, or the digest was wrong).
        case checksumMismatch
        /// A 5xx or 429 answer on every attempt.
        case serverError
        /// No usable answer on every attempt: connection refused or reset, a timeout, a cut answer,
        /// or a failure of the connection itself (TLS, name resolution).
        case unreachable
        /// Another HTTP status the client does not expect.
        case unexpectedStatus
        /// The server answered something the client cannot read (a malformed listing, a wrong length).
        case invalidResponse
        /// The request body could not be read from its file.
        case bodyUnreadable
        /// The response body could not be written to its file, or is larger than allowed.
        case responseUnwritable
    }

    /// What kind of failure.
    public let kind: Kind
    /// The request: `PUT`, `GET`, `HEAD`, `DELETE`, `LIST`, `CREATE BUCKET`, or `configure`.
    public let operation: String
    /// The server's base URL.
    public let endpoint: String
    /// The bucket, when the request had one.
    public let bucket: String?
    /// The object key, when the request had one.
    public let key: String?
    /// The HTTP status of the last answer (0 when there was none).
    public let status: Int
    /// The server's error code (`SignatureDoesNotMatch`, `NoSuchKey`, ...) when it sent one.
    public let code: String?
    /// The server's message, curl's error text, or the system's reason.
    public let detail: String
    /// How many attempts were made.
    public let attempts: Int

    /// An error of `kind` for a request.
    public init(
        _ kind: Kind, operation: String, endpoint: String, bucket: String? = nil, key: String? = nil, status: Int = 0,
        code: String? = nil, detail: String, attempts: Int = 1
    ) {
        self.kind = kind
        self.operation = operation
        self.endpoint = endpoint
        self.bucket = bucket
        self.key = key
        self.status = status
        self.code = code
        self.detail = detail
        self.attempts = attempts
    }

    /// `S3 GET http://127.0.0.1:8333 bucket 'photos' key 'ab/cd': access denied (HTTP 403
    /// SignatureDoesNotMatch: ...)`, plus the number of attempts when there were several.
    public var description: String {
        var target = "S3 \(operation) \(endpoint)"
        if let bucket { target += " bucket '\(bucket)'" }
        if let key { target += " key '\(key)'" }
        var cause = ""
        if status != 0 || code != nil {
            cause = " (" + (status != 0 ? "HTTP \(status)" : "") + (code.map { (status != 0 ? " " : "") + $0 } ?? "")
            cause += detail.isEmpty ? ")" : ": \(detail))"
        } else if !detail.isEmpty {
            cause = " (\(detail))"
        }
        let tries = attempts > 1 ? " after \(attempts) attempts" : ""
        return "\(target): \(summary)\(cause)\(tries)"
    }

    /// A few words for the kind.
    private var summary: String {
        switch kind {
        case .missingCredentials: return "no credentials"
        case .invalidRequest: return "invalid request"
        case .accessDenied: return "access denied (wrong access key or secret, or no permission)"
        case .noSuchBucket: return "the bucket does not exist"
        case .noSuchKey: return "no such object"
        case .preconditionFailed: return "the object already exists (precondition failed)"
        case .rangeNotSatisfiable: return "the byte range is not satisfiable"
        case .checksumMismatch: return "the bytes received do not match their SHA-256"
        case .serverError: return "server error"
        case .unreachable: return "no answer from the server"
        case .unexpectedStatus: return "unexpected answer"
        case .invalidResponse: return "unreadable answer"
        case .bodyUnreadable: return "cannot read the body to send"
        case .responseUnwritable: return "cannot keep the answer"
        }
    }
}
