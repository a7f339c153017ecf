import LivePair
import LivePairLibrary

/// One endpoint: a method, a path pattern with `{name}` parameters, and its responder.
struct Route: Sendable {
    /// How the responder runs and what it gets.
    enum Kind: Sendable {
        /// Quick work (catalog reads, file responses): runs on the daemon's worker thread.
        case quick
        /// Work that may block (ingestion, decoding, long polls): runs on the work queue.
        case blocking
        /// Takes the body as a spooled upload of at most the server's limit; runs on the work queue.
        case upload
    }

    /// `GET`, `PUT`, `DELETE`.
    let method: String
    /// The pattern as written, for example `/v1/assets/{id}` (also the route's name in logs and metrics).
    let pattern: String
    /// Whether a bearer token is required (the owner is then in the context).
    let authenticated: Bool
    let kind: Kind
    let respond: @Sendable (RouteContext) throws(HTTPError) -> HTTPResponse
    /// For a blocking route: an answer that needs no blocking work (a derivative already cached),
    /// tried first on the daemon's worker thread; nil to go to the work queue.
    var respondWithoutBlocking: (@Sendable (RouteContext) throws(HTTPError) -> HTTPResponse?)? = nil

    private var segments: [Substring] { pattern.split(separator: "/", omittingEmptySubsequences: false) }

    /// The path parameters when `path` (percent-encoded, as sent) matches the pattern, else nil;
    /// each parameter is its segment decoded (an encoded `/` stays inside it).
    func match(_ path: String) -> [String: String]? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        let expected = segments
        guard parts.count == expected.count else { return nil }
        var parameters: [String: String] = [:]
        for (part, segment) in zip(parts, expected) {
            if segment.hasPrefix("{") && segment.hasSuffix("}") {
                guard !part.isEmpty else { return nil }
                guard let decoded = try? RequestTarget.decode(part.utf8, what: "path") else { return nil }
                parameters[String(segment.dropFirst().dropLast())] = decoded
            } else if part != segment {
                return nil
            }
        }
        return parameters
    }
}

/// What a responder gets: the request, its path parameters, the authenticated owner and the body.
struct RouteContext: Sendable {
    let request: HTTPRequest
    let parameters: [String: String]
    /// The token's owner (empty for routes that need no token).
    let owner: String
    let body: ReceivedBody

    /// The path parameter `name`.
    func parameter(_ name: String) -> String { parameters[name] ?? "" }

    /// The `version` query argument (`current`, `unadjusted`, `original`), `defaultValue` when absent.
    /// - Throws: 400 for any other value.
    func version(default defaultValue: AssetVersion) throws(HTTPError) -> AssetVersion {
        guard let text = request.query["version"] else { return defaultValue }
        guard let version = AssetVersion(rawValue: text) else {
            throw .badRequest("'version' must be current, unadjusted or original")
        }
        return version
    }

    /// The query argument `name` as an integer in `range`, `defaultValue` when absent.
    /// - Throws: 400 when present but not an integer in range.
    func integer(_ name: String, in range: ClosedRange<Int>, default defaultValue: Int) throws(HTTPError) -> Int {
        guard let text = request.query[name] else { return defaultValue }
        guard let value = Int(text), range.contains(value) else {
            throw .badRequest("'\(name)' must be an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }
}
