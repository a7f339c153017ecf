/// An error a route answers with: the status and a message for the client, mapped to a JSON
/// body (`{"error": {"status": ..., "message": ...}}`) at one place, `HTTPResponse(error:)`.
public struct HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status code.
    public let status: Int
    /// What went wrong, for the client (never a path of the server, never a token).
    public let message: String
    /// Extra headers (`WWW-Authenticate`, `Content-Range`, ...).
    public var headers: [String: String] = [:]
    /// Why it failed, for the server's log only (`HTTPError.cause(of:)`): never sent to the client.
    public var cause: [String: String] = [:]

    /// The message (what a command line prints).
    public var description: String { message }

    /// An error with `status` and `message`.
    public init(status: Int, _ message: String, headers: [String: String] = [:]) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    /// 400.
    public static func badRequest(_ message: String) -> HTTPError { HTTPError(status: 400, message) }
    /// 401, with the bearer challenge.
    public static let unauthorized = HTTPError(
        status: 401, "a valid bearer token is required", headers: ["WWW-Authenticate": "Bearer realm=\"livepair\""])
    /// 404 (also for another owner's asset: existence is not revealed).
    public static func notFound(_ message: String = "not found") -> HTTPError { HTTPError(status: 404, message) }
    /// 405.
    public static func methodNotAllowed(_ allowed: [String]) -> HTTPError {
        HTTPError(status: 405, "method not allowed", headers: ["Allow": allowed.joined(separator: ", ")])
    }
    /// 413.
    public static func tooLarge(_ limit: Int64) -> HTTPError {
        HTTPError(status: 413, "the body is larger than the limit of \(limit) bytes")
    }
    /// 416, with the resource's length.
    public static func rangeNotSatisfiable(size: Int64) -> HTTPError {
        HTTPError(status: 416, "the range is not satisfiable", headers: ["Content-Range": "bytes */\(size)"])
    }
    /// 500.
    public static func `internal`(_ message: String) -> HTTPError { HTTPError(status: 500, message) }
    /// 503 (shutting down).
    public static let unavailable = HTTPError(status: 503, "the server is shutting down")
}
