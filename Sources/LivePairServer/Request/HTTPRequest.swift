/// One HTTP request as the routes see it: method, path, query and headers, copied out of the
/// connection when the headers arrived (so work on another thread never touches the connection).
public struct HTTPRequest: Sendable {
    /// `GET`, `PUT`, ...
    public let method: String
    /// The path as sent, without the query (percent-encoded: the router decodes each segment it
    /// takes as a parameter).
    public let path: String
    /// Query arguments by name, decoded (the last one wins when repeated).
    public let query: [String: String]
    /// Headers by lowercased name.
    public let headers: [String: String]

    /// A request.
    public init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:]) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
    }

    /// The header `name` (any case).
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The declared body length, when a valid `Content-Length` was sent.
    public var contentLength: Int64? { header("content-length").flatMap { Int64($0) } }
}
