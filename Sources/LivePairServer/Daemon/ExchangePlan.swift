/// What a handler decides once a request's headers are in.
public enum ExchangePlan: Sendable {
    /// Answer now; any body is read and dropped.
    case respond(HTTPResponse)
    /// Read the body (spooled to a temporary file up to `spoolLimit` bytes, or dropped when nil),
    /// then call `respond` with it: on the daemon's worker thread when it is quick, or on the
    /// server's work queue (`offThread`, the connection suspended meanwhile) when it may block.
    case receive(spoolLimit: Int64?, offThread: Bool, respond: @Sendable (ReceivedBody) -> HTTPResponse)
}

/// What the daemon reports when an exchange ends, for logs and metrics.
public struct ExchangeRecord: Sendable {
    /// The request.
    public let request: HTTPRequest
    /// Its `X-Request-Id`.
    public let requestID: String
    /// The response queued, if one was (nil: the client left or was dropped before).
    public let response: HTTPResponse?
    /// Seconds from the headers' arrival to the end.
    public let seconds: Double
    /// Whether the response was sent completely.
    public let completed: Bool
    /// Body bytes received.
    public let bytesReceived: Int64
}

/// The application behind the daemon.
public protocol ExchangeHandler: Sendable {
    /// Decides what to do with a request whose headers arrived.
    func plan(_ request: HTTPRequest) -> ExchangePlan
    /// A fresh path for a temporary upload file.
    func spoolPath() -> String
    /// Called once per request when it ends (sent, failed, timed out or aborted).
    func finished(_ record: ExchangeRecord)
}
