/// What a HEAD request says about an object.
public struct S3ObjectInfo: Sendable, Equatable {
    /// The size in bytes.
    public let size: UInt64
    /// The entity tag, without quotes.
    public let etag: String?
    /// When the object was written, in seconds since 1970-01-01 UTC.
    public let lastModified: Int64?
    /// The media type stored with the object.
    public let contentType: String?
}

/// One object of a listing.
public struct S3ObjectSummary: Sendable, Equatable {
    /// The object's key.
    public let key: String
    /// The size in bytes.
    public let size: UInt64
    /// When the object was written, in seconds since 1970-01-01 UTC.
    public let lastModified: Int64?
    /// The entity tag, without quotes.
    public let etag: String?
}

/// One page of a ListObjectsV2 listing.
public struct S3ListPage: Sendable, Equatable {
    /// The objects of this page, in key order.
    public let objects: [S3ObjectSummary]
    /// The token that asks for the next page; nil on the last page.
    public let continuationToken: String?
}

/// What a successful PUT answers.
public struct S3PutResult: Sendable, Equatable {
    /// The new object's entity tag, without quotes.
    public let etag: String?
}

extension S3ListPage {
    /// Reads a `ListBucketResult` document; nil when it is not one or an object lacks a key or size.
    static func parse(_ document: String) -> S3ListPage? {
        let text = document[...]
        guard text.contains("<ListBucketResult") else { return nil }
        var objects: [S3ObjectSummary] = []
        for contents in S3XML.elements("Contents", in: text) {
            guard let key = S3XML.text("Key", in: contents), let size = S3XML.text("Size", in: contents).flatMap({ UInt64($0) })
            else { return nil }
            objects.append(
                S3ObjectSummary(
                    key: key, size: size, lastModified: S3XML.text("LastModified", in: contents).flatMap(S3Dates.iso8601),
                    etag: S3XML.text("ETag", in: contents).map(unquoted)))
        }
        let truncated = S3XML.text("IsTruncated", in: text) == "true"
        let token = S3XML.text("NextContinuationToken", in: text)
        if truncated && (token ?? "").isEmpty { return nil }
        return S3ListPage(objects: objects, continuationToken: truncated ? token : nil)
    }
}

/// An entity tag without its surrounding double quotes.
func unquoted(_ etag: String) -> String {
    etag.count >= 2 && etag.hasPrefix("\"") && etag.hasSuffix("\"") ? String(etag.dropFirst().dropLast()) : etag
}
