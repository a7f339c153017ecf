import LivePairCrypto

/// A client for an S3-compatible object store, over libcurl with AWS Signature Version 4 and
/// path-style addressing: PUT (write-once on request), GET (whole or a byte range, into memory or
/// a file), HEAD, DELETE, ListObjectsV2 and bucket creation.
///
/// Blocking and thread-safe: each call runs on the caller's thread with a pooled libcurl handle.
/// Server errors (5xx, 429) and transport failures (refused or reset connections, timeouts) are
/// retried with backoff (`S3RetryPolicy`), then reported as a typed `S3Error` that names the
/// endpoint, bucket and key and never the secret.
public final class S3Client: Sendable {
    /// The server and credentials.
    public let configuration: S3Configuration
    let handles = CurlHandlePool()
    let counter = S3RequestCounter()

    /// The requests this client has sent so far, by kind (every attempt counts).
    public var requestCounts: S3RequestCounts { counter.snapshot }

    /// The requests this client has sent so far, by kind, without the retries of failed attempts:
    /// what its callers asked for, however often a busy or failing server made it try again.
    public var firstAttemptCounts: S3RequestCounts { counter.firstAttempts }

    /// The SHA-256 of no bytes, in hexadecimal: the payload hash of a request without a body.
    static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    /// A client for `configuration`. Throws `invalidRequest` when the endpoint is not an `http://`
    /// or `https://` URL.
    public init(configuration: S3Configuration) throws(S3Error) {
        let endpoint = configuration.endpoint
        guard endpoint.hasPrefix("http://") || endpoint.hasPrefix("https://"),
            endpoint.split(separator: "/", omittingEmptySubsequences: true).count == 2
        else {
            throw S3Error(
                .invalidRequest, operation: "configure", endpoint: endpoint,
                detail: "the endpoint must be http://HOST[:PORT] or https://HOST[:PORT]")
        }
        self.configuration = configuration
    }

    /// Creates `bucket`; succeeds too when it exists and is already yours.
    public func createBucket(_ bucket: String) throws(S3Error) {
        let target = try S3Target(client: self, operation: "CREATE BUCKET", bucket: bucket, key: nil)
        do {
            _ = try send(target, method: "PUT", headers: ["x-amz-content-sha256: \(Self.emptyPayloadHash)"], body: .bytes([]))
        } catch where error.code == "BucketAlreadyOwnedByYou" {
            return
        }
    }

    /// Deletes `bucket`. S3 refuses a bucket that still holds objects (`BucketNotEmpty`);
    /// SeaweedFS deletes it with its objects (the test servers' buckets are dropped that way).
    public func deleteBucket(_ bucket: String) throws(S3Error) {
        let target = try S3Target(client: self, operation: "DELETE BUCKET", bucket: bucket, key: nil)
        _ = try send(target, method: "DELETE", headers: ["x-amz-content-sha256: \(Self.emptyPayloadHash)"], body: .bytes([]))
    }

    /// Stores `body` as `key` in `bucket`, sending its SHA-256 (as `x-amz-content-sha256`, signed,
    /// and as `x-amz-checksum-sha256`, which the server checks against the bytes it received).
    /// Pass `contentSHA256` when the digest is known (a content-addressed store's key), else it
    /// is computed here (for a file, by reading it once more). With `writeOnce` the PUT carries
    /// `If-None-Match: *`: an existing object is left untouched and `preconditionFailed` thrown.
    @discardableResult
    public func put(
        bucket: String, key: String, body: S3Body, contentType: String = "application/octet-stream",
        writeOnce: Bool = false, contentSHA256: [UInt8]? = nil
    ) throws(S3Error) -> S3PutResult {
        let target = try S3Target(client: self, operation: "PUT", bucket: bucket, key: key)
        let digest: [UInt8]
        if let contentSHA256 {
            digest = contentSHA256
        } else {
            switch body.sha256() {
            case .success(let computed): digest = computed
            case .failure(let failure): throw target.error(.bodyUnreadable, detail: failure.reason)
            }
        }
        var headers = [
            "Content-Type: \(contentType)", "x-amz-content-sha256: \(S3Encoding.hex(digest))",
            "x-amz-checksum-sha256: \(S3Encoding.base64(digest))",
        ]
        if writeOnce { headers.append("If-None-Match: *") }
        let answer = try send(target, method: "PUT", headers: headers, body: body)
        return S3PutResult(etag: answer.headers["etag"].map(unquoted))
    }

    /// The bytes of `key`, or of the byte `range` of it (an HTTP range: both ends included; an end
    /// past the object's end is cut to it). Throws `rangeNotSatisfiable` when the range starts past
    /// the end, and `responseUnwritable` when the answer is larger than `maximumSize`.
    public func get(
        bucket: String, key: String, range: ClosedRange<UInt64>? = nil, maximumSize: Int = 1 << 30
    ) throws(S3Error) -> [UInt8] {
        let target = try S3Target(client: self, operation: "GET", bucket: bucket, key: key)
        return try send(target, method: "GET", headers: readHeaders(range), destination: .memory(limit: maximumSize), range: range).body
    }

    /// Writes the bytes of `key` (or of its byte `range`) to `descriptor` from `offset` with
    /// positioned writes, streaming, and returns how many were written. A retried attempt writes
    /// again from `offset`.
    public func get(
        bucket: String, key: String, range: ClosedRange<UInt64>? = nil, into descriptor: Int32, at offset: UInt64 = 0
    ) throws(S3Error) -> UInt64 {
        let target = try S3Target(client: self, operation: "GET", bucket: bucket, key: key)
        return try send(
            target, method: "GET", headers: readHeaders(range), destination: .descriptor(descriptor, offset: offset), range: range
        ).written
    }

    /// The size, entity tag, modification time and media type of `key`. A missing object (or
    /// bucket: HEAD answers carry no error document) throws `noSuchKey`.
    public func head(bucket: String, key: String) throws(S3Error) -> S3ObjectInfo {
        let target = try S3Target(client: self, operation: "HEAD", bucket: bucket, key: key)
        let answer = try send(target, method: "HEAD", headers: ["x-amz-content-sha256: \(Self.emptyPayloadHash)"])
        guard let size = answer.headers["content-length"].flatMap({ UInt64($0) }) else {
            throw target.error(.invalidResponse, status: answer.status, detail: "the answer has no Content-Length")
        }
        return S3ObjectInfo(
            size: size, etag: answer.headers["etag"].map(unquoted),
            lastModified: answer.headers["last-modified"].flatMap(S3Dates.httpDate), contentType: answer.headers["content-type"])
    }

    /// Deletes `key`. Deleting a key that does not exist succeeds (S3 answers 204 either way).
    public func delete(bucket: String, key: String) throws(S3Error) {
        let target = try S3Target(client: self, operation: "DELETE", bucket: bucket, key: key)
        _ = try send(target, method: "DELETE", headers: ["x-amz-content-sha256: \(Self.emptyPayloadHash)"])
    }

    /// One page (up to `maximumKeys` objects, in key order) of the objects whose keys start with
    /// `prefix`; pass the previous page's `continuationToken` for the next one.
    public func listPage(
        bucket: String, prefix: String = "", continuationToken: String? = nil, maximumKeys: Int = 1_000
    ) throws(S3Error) -> S3ListPage {
        let target = try S3Target(client: self, operation: "LIST", bucket: bucket, key: nil)
        // Parameters in the order SigV4 canonicalizes them (sorted, strictly encoded): curl 7.88 signs the query as sent.
        var query: [String] = []
        if let continuationToken { query.append("continuation-token=\(S3Encoding.uriEncode(continuationToken, keepSlash: false))") }
        query.append("list-type=2")
        query.append("max-keys=\(maximumKeys)")
        query.append("prefix=\(S3Encoding.uriEncode(prefix, keepSlash: false))")
        let answer = try send(
            target, method: "GET", headers: ["x-amz-content-sha256: \(Self.emptyPayloadHash)"], query: query.joined(separator: "&"))
        guard let page = S3ListPage.parse(String(decoding: answer.body, as: UTF8.self)) else {
            throw target.error(.invalidResponse, status: answer.status, detail: "the listing is not a ListBucketResult document")
        }
        counter.countListed(objects: page.objects.count)
        return page
    }

    /// Every object whose key starts with `prefix`, following continuation tokens page by page.
    public func list(bucket: String, prefix: String = "") throws(S3Error) -> [S3ObjectSummary] {
        var objects: [S3ObjectSummary] = []
        var token: String?
        repeat {
            let page = try listPage(bucket: bucket, prefix: prefix, continuationToken: token)
            objects += page.objects
            token = page.continuationToken
        } while token != nil
        return objects
    }

    private func readHeaders(_ range: ClosedRange<UInt64>?) -> [String] {
        var headers = ["x-amz-content-sha256: \(Self.emptyPayloadHash)"]
        if let range { headers.append("Range: bytes=\(range.lowerBound)-\(range.upperBound)") }
        return headers
    }
}
