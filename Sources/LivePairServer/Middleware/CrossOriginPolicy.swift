import Foundation

/// Cross-origin access (CORS, the Fetch standard) for web pages on other origins that call the API
/// with a bearer token: the `<live-photo>` element's `asset-id` mode on another site, a web app on
/// its own domain. The origins allowed (`serve --cors-origins`) get `Access-Control-Allow-Origin`
/// on every response, errors included, and an answer to the browser's preflight (`OPTIONS` with
/// `Access-Control-Request-Method`). No origin is allowed by default. Credentials (cookies) are
/// never involved: the token is a header the page sets, so `*` can be allowed.
public struct CrossOriginPolicy: Sendable, Equatable {
    /// The origins allowed (`https://site.example`, `http://localhost:3000`, `null` for pages opened
    /// from disk), or `*` for any.
    public let origins: Set<String>

    /// The request headers a page may send (the API's own, plus what conditional and range requests use).
    static let allowedHeaders =
        "Authorization, Content-Type, Content-Digest, Range, If-None-Match, Last-Event-ID, X-Original-Filename, X-Original-Folder, X-Request-Id"
    /// The response headers a page may read besides the safelisted ones.
    static let exposedHeaders = "ETag, Content-Range, Accept-Ranges, Content-Length, Retry-After, Location, X-Request-Id"
    /// How long a browser may keep a preflight's answer, in seconds.
    static let preflightMaxAge = "600"

    /// A policy allowing `origins` (empty: none, the default).
    public init(origins: [String] = []) {
        self.origins = Set(origins)
    }

    /// Whether any origin is allowed.
    public var isEnabled: Bool { !origins.isEmpty }

    /// The origins in `list` (comma-separated), each `*`, `null` or `scheme://host[:port]` with
    /// no path; nil when one is not.
    public static func parse(_ list: String) -> [String]? {
        let origins = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard !origins.isEmpty, origins.allSatisfy(isOrigin) else { return nil }
        return origins
    }

    private static func isOrigin(_ text: String) -> Bool {
        if text == "*" || text == "null" { return true }
        guard let separator = text.range(of: "://") else { return false }
        let scheme = text[..<separator.lowerBound], authority = text[separator.upperBound...]
        return ["http", "https"].contains(scheme) && !authority.isEmpty
            && authority.allSatisfy { $0.isLetter || $0.isNumber || "-.:[]".contains($0) } && !authority.hasSuffix(":")
    }

    /// The `Access-Control-Allow-Origin` value for `request`: `*`, or its `Origin` when allowed; nil
    /// when it has no `Origin` or one not allowed.
    func allowedOrigin(for request: HTTPRequest) -> String? {
        guard let origin = request.header("origin") else { return nil }
        if origins.contains("*") { return "*" }
        return origins.contains(origin) ? origin : nil
    }

    /// The answer to a preflight of a path whose routes take `methods`: 204 with the methods
    /// (`HEAD` after `GET`) and headers allowed; `decorate` adds the origin.
    func preflight(methods: [String]) -> HTTPResponse {
        let allowed = methods.flatMap { $0 == "GET" && !methods.contains("HEAD") ? ["GET", "HEAD"] : [$0] }
        return HTTPResponse(
            status: 204,
            headers: [
                ("Access-Control-Allow-Methods", allowed.joined(separator: ", ")),
                ("Access-Control-Allow-Headers", Self.allowedHeaders),
                ("Access-Control-Max-Age", Self.preflightMaxAge),
            ])
    }

    /// `response` with the headers that let a page of `origin` read it.
    func decorate(_ response: HTTPResponse, origin: String) -> HTTPResponse {
        var response = response
        response.headers.removeAll { $0.name.lowercased() == "access-control-allow-origin" }
        response.headers.append(("Access-Control-Allow-Origin", origin))
        response.headers.append(("Access-Control-Expose-Headers", Self.exposedHeaders))
        if origin != "*" { response.headers.append(("Vary", "Origin")) }
        return response
    }
}
