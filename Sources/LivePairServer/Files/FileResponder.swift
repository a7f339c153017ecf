import Foundation

/// Sends immutable files (originals, cached derivatives): `ETag` (strong, from the content) and
/// `If-None-Match` (304), `Range` (206 with `Content-Range`, or 416), `Cache-Control`,
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
        let size = Int64(status.st_size)
        let quoted = "\"\(etag)\""
        var headers: [(name: String, value: String)] = [
            ("ETag", quoted), ("Cache-Control", immutableCaching), ("Accept-Ranges", "bytes"), ("Content-Type", contentType),
        ] + extraHeaders
        if let match = request.header("if-none-match"),
            match == "*" || match.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == quoted })
        {
            return HTTPResponse(status: 304, headers: headers.filter { $0.name != "Content-Type" })
        }
        guard let range = try ByteRange.resolve(request.header("range"), size: size) else {
            return HTTPResponse(status: 200, headers: headers, body: .file(path: path, offset: 0, length: size))
        }
        headers.append(("Content-Range", "bytes \(range.lowerBound)-\(range.upperBound)/\(size)"))
        return HTTPResponse(
            status: 206, headers: headers,
            body: .file(path: path, offset: range.lowerBound, length: range.upperBound - range.lowerBound + 1))
    }
}
