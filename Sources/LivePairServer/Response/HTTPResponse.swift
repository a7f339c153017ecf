import LivePairLogging

/// A response: status, headers and a body held in memory or sent from a file.
public struct HTTPResponse: Sendable {
    /// Where the body comes from.
    public enum Body: Sendable {
        /// No body.
        case empty
        /// These bytes.
        case bytes([UInt8])
        /// `length` bytes of the file at `path` from `offset` (read by the daemon, never whole in memory).
        case file(path: String, offset: Int64, length: Int64)
        /// Bytes written while the response is sent (sent chunked, of unknown length).
        case stream(ResponseStream)
    }

    /// The status code.
    public var status: Int
    /// Headers, in order.
    public var headers: [(name: String, value: String)]
    /// The body.
    public var body: Body
    /// What the request log and metrics record about it (for example the upload's outcome).
    public var annotations: [String: String] = [:]

    /// A response.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .empty) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The body's length in bytes.
    public var bodyLength: Int64 {
        switch body {
        case .empty: return 0
        case let .bytes(bytes): return Int64(bytes.count)
        case let .file(_, _, length): return length
        case .stream: return 0
        }
    }

    /// A text response (`text/plain; charset=utf-8` unless `contentType` says otherwise).
    public static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8") -> HTTPResponse {
        HTTPResponse(
            status: status, headers: [("Content-Type", contentType), ("Cache-Control", "no-store")],
            body: .bytes(Array(text.utf8)))
    }

    /// The JSON error body for `error`, with its headers.
    public init(error: HTTPError) {
        let body = "{\"error\":{\"status\":\(error.status),\"message\":\(JSONLinesLogHandler.quoted(error.message))}}"
        self.init(
            status: error.status,
            headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")]
                + error.headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
            body: .bytes(Array(body.utf8)))
        for (key, value) in error.cause { annotations["cause." + key] = value }
        annotations["error"] = error.message
    }
}
