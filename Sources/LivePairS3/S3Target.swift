/// The bucket and key one request is about, checked and encoded into its URL, and the context
/// every error of that request carries.
struct S3Target {
    let operation: String
    let endpoint: String
    let bucket: String
    let key: String?
    /// `<endpoint>/<bucket>[/<key>]`, the key URI-encoded segment by segment.
    let url: String

    init(client: S3Client, operation: String, bucket: String, key: String?) throws(S3Error) {
        self.operation = operation
        endpoint = client.configuration.endpoint
        self.bucket = bucket
        self.key = key
        guard S3Client.isValidBucketName(bucket) else {
            throw S3Error(
                .invalidRequest, operation: operation, endpoint: endpoint, bucket: bucket, key: key,
                detail: "a bucket name is 3 to 63 lowercase letters, digits, dots and hyphens")
        }
        if let key {
            guard !key.isEmpty, key.utf8.count <= 1_024 else {
                throw S3Error(
                    .invalidRequest, operation: operation, endpoint: endpoint, bucket: bucket, key: key,
                    detail: "an object key is 1 to 1024 bytes")
            }
            url = "\(endpoint)/\(bucket)/\(S3Encoding.uriEncode(key, keepSlash: true))"
        } else {
            url = "\(endpoint)/\(bucket)"
        }
    }

    /// An error of this request.
    func error(_ kind: S3Error.Kind, status: Int = 0, code: String? = nil, detail: String, attempts: Int = 1) -> S3Error {
        S3Error(
            kind, operation: operation, endpoint: endpoint, bucket: bucket, key: key, status: status, code: code, detail: detail,
            attempts: attempts)
    }
}

extension S3Client {
    /// S3's bucket naming rules, the part a path-style URL depends on.
    public static func isValidBucketName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (3...63).contains(bytes.count) else { return false }
        let allowed = bytes.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x2D }
        let isAlphanumeric: (UInt8) -> Bool = { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) }
        return allowed && isAlphanumeric(bytes[0]) && isAlphanumeric(bytes[bytes.count - 1])
    }
}
