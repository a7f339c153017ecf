/// What accompanies each result handed to a request's handler (PhotoKit's info dictionary,
/// typed).
public struct ResultInfo: Sendable {
    /// The request this result belongs to.
    public let requestID: RequestID
    /// True for a preview (the placeholder); another call follows unless the request is cancelled or fails.
    public let isDegraded: Bool
    /// True when the request was cancelled; this is the request's last call.
    public let isCancelled: Bool
    /// Why the request failed (`LoaderError.cancelled` when cancelled); nil for results.
    public let error: LoaderError?

    /// An info value.
    public init(requestID: RequestID, isDegraded: Bool, isCancelled: Bool, error: LoaderError?) {
        self.requestID = requestID
        self.isDegraded = isDegraded
        self.isCancelled = isCancelled
        self.error = error
    }

    /// True when no further call follows for this request (final, cancelled or failed).
    public var isTerminal: Bool { !isDegraded || isCancelled || error != nil }
}
