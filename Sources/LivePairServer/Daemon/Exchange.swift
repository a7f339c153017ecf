import Synchronization

/// One request in flight on a connection: created when its headers arrive, released by the
/// daemon's completion callback. The daemon calls a connection's callbacks one at a time; only
/// `ready` is touched from another thread (the work queue), under its lock.
final class Exchange: @unchecked Sendable {
    let request: HTTPRequest
    /// Its `X-Request-Id` (sent with the response, written in the log line).
    let requestID: String
    let start = ContinuousClock.now
    /// What the handler decided.
    var plan: ExchangePlan
    /// Where the body goes, while it arrives.
    var spool: UploadSpool?
    var bytesReceived: Int64 = 0
    /// The body (`respond` called) has been handed over.
    var handedOver = false
    /// The response queued on the connection.
    var queued: HTTPResponse?
    /// The most body bytes read and dropped before an answer decided from the headers is sent.
    var drainLimit = HTTPDaemon.drainLimit
    /// An answer decided from the headers goes at once, the body unread (the connection is closed).
    var answersAtOnce = false
    /// A response computed off the daemon's thread, waiting for the connection's resumption.
    let ready = Mutex<HTTPResponse?>(nil)

    init(request: HTTPRequest, plan: ExchangePlan) {
        self.request = request
        self.plan = plan
        requestID = RequestID.make(proposed: request.header("x-request-id"))
    }

    /// Seconds since the headers arrived.
    var elapsedSeconds: Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// Whether an answer decided before the body arrived waits until the body is read and
    /// dropped: a client still sending would otherwise meet a closed connection (EPIPE or a reset
    /// that can destroy the answer) instead of reading it. Not for a client that waits for
    /// `100 Continue` (it sends no body then), nor for a body longer than `drainLimit` (the answer
    /// goes at once and the connection is closed, as RFC 9112 allows).
    var drainsBodyFirst: Bool {
        if request.header("expect")?.lowercased() == "100-continue" { return false }
        if let length = request.contentLength { return length > 0 && length <= drainLimit }
        return request.header("transfer-encoding") != nil
    }
}
