import Foundation

/// Sends immutable files (originals, cached derivatives): `ETag` (strong, from the content) and
/// `If-None-Match` (304, compared weakly as RFC 9110 asks: `W/"tag"` matches `"tag"`), `Range` (206 with `Content-Range`, or 416), `Cache-Control`,
/// `Accept-Ranges`. The body is read from the file by the daemon, never whole in memory.
enum FileResponder {
    /// Content-addressed files never change under their URL.
    static let immutableCaching = "private, max-age=31536000, immutable"

    /// The response for the file at `path` with entity tag `etag` (without quotes) and `contentType`.
    static func respond(
        to request: HTTPRequest, path: String, etag: String, contentType: String,
        extraHeaders: [(name: String, value: String)] = []
    ) throws(HTTPError) -> HTTPResponse {
        var status = stat()
        guard stat(path, &status) == 0 else { throw .notFound("the file is not available") }
        return try respond(to: request, size: Int64(status.st_size), etag: etag, contentType: contentType, extraHeaders: extraHeaders) {
            range throws(HTTPError) in
            let offset = range?.lowerBound ?? 0
            return .file(path: path, offset: offset, length: (range?.upperBound ?? Int64(status.st_size) - 1) - offset + 1)
        }
    }

    /// The response for content of `size` bytes whose body `body` gives: the whole content for a
    /// nil range, else the bytes of the range (both ends included). `body` is not called for 304.
    static func respond(
        to request: HTTPRequest, size: Int64, etag: String, contentType: String,
        extraHeaders: [(name: String, value: String)] = [],
        body: (ClosedRange<Int64>?) throws(HTTPError) -> HTTPResponse.Body
    ) throws(HTTPError) -> HTTPResponse {
        let quoted = "\"\(etag)\""
        var headers: [(name: String, value: String)] = [
            ("ETag", quoted), ("Cache-Control", immutableCaching), ("Accept-Ranges", "bytes"), ("Content-Type", contentType),
        ] + extraHeaders
        if let match = request.header("if-none-match"), matches(match, quoted) {
            return HTTPResponse(status: 304, headers: headers.filter { $0.name != "Content-Type" })
        }
        guard let range = try ByteRange.resolve(request.header("range"), size: size) else {
            return HTTPResponse(status: 200, headers: headers, body: try body(nil))
        }
        headers.append(("Content-Range", "bytes \(range.lowerBound)-\(range.upperBound)/\(size)"))
        return HTTPResponse(status: 206, headers: headers, body: try body(range))
    }

    /// Whether an `If-None-Match` value (`*` or a list of entity tags, weak or strong) names the
    /// quoted tag `quoted`, compared weakly (RFC 9110 13.1.2).
    static func matches(_ header: String, _ quoted: String) -> Bool {
        if header.trimmingCharacters(in: .whitespaces) == "*" { return true }
        return header.split(separator: ",").contains { entry in
            let tag = entry.trimmingCharacters(in: .whitespaces)
            return (tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag) == quoted
        }
    }
}
