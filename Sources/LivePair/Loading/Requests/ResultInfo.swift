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
    /// For a degraded result the loader decoded: where its pixels came from (the HEIC `thmb`
    /// item, the Exif thumbnail, the paired movie's frame, a reduced decode). The image's own
    /// width and height are its size: a degraded image is delivered at the size its source has
    /// (never enlarged), the view scales it up. Nil for final results and for the caller's own
    /// placeholder.
    public let degradedSource: PreviewSource?

    /// An info value.
    public init(
        requestID: RequestID, isDegraded: Bool, isCancelled: Bool, error: LoaderError?,
        degradedSource: PreviewSource? = nil
    ) {
        self.requestID = requestID
        self.isDegraded = isDegraded
        self.isCancelled = isCancelled
        self.error = error
        self.degradedSource = degradedSource
    }

    /// True when no further call follows for this request (final, cancelled or failed).
    public var isTerminal: Bool { !isDegraded || isCancelled || error != nil }
}
