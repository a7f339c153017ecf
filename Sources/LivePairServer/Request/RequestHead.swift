import Foundation

/// What a request's head must satisfy beyond libmicrohttpd's own checks before it is routed.
enum RequestHead {
    /// The most body bytes read and dropped from a GET, HEAD or DELETE before its 400.
    static let unwantedBodyLimit: Int64 = 1 << 20

    /// Checks the headers of `request`; `conflicting` names the headers sent twice with
    /// different values (lowercased).
    /// - Throws: 400 for a control character in a header value, two different `Content-Length`
    ///   headers, or a body on GET, HEAD or DELETE; 501 for a `Transfer-Encoding` other than
    ///   `chunked`.
    static func check(_ request: HTTPRequest, conflicting: Set<String>) throws(HTTPError) {
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key })
        where value.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }) {
            throw .badRequest("the header \(name) holds a control character")
        }
        if conflicting.contains("content-length") { throw .badRequest("two different Content-Length headers") }
        if let coding = request.header("transfer-encoding"), coding.trimmingCharacters(in: .whitespaces).lowercased() != "chunked" {
            throw HTTPError(status: 501, "only the chunked Transfer-Encoding is supported")
        }
        if ["GET", "HEAD", "DELETE"].contains(request.method), hasBody(request) {
            throw .badRequest("a \(request.method) request must not have a body")
        }
    }

    /// Whether the request announces a body.
    static func hasBody(_ request: HTTPRequest) -> Bool {
        request.header("transfer-encoding") != nil || (request.contentLength ?? 0) > 0
    }
}
