import Dispatch
import LivePairMedia
import Synchronization

/// One request's side of a shared load: its id, what it wants, and a serial queue on which its
/// handler is called.
///
/// Every delivery goes through the queue and checks there whether the request already had its
/// terminal call, so a request gets exactly one terminal call, never anything after it, and its
/// calls arrive in order, whatever threads finish or cancel the work.
final class Subscription<Value: Sendable>: Sendable {
    /// The request's id.
    let id: RequestID
    /// True when the request wants the work's degraded preview (opportunistic, no own placeholder).
    let wantsPreview: Bool
    /// The caller's placeholder, delivered as the degraded result once the pair is validated.
    let placeholder: PixelBuffer?
    private let handler: @Sendable (LoadEvent<Value>, ResultInfo) -> Void
    private let progressHandler: (@Sendable (Double) -> Void)?
    private let queue: DispatchQueue
    /// Whether the terminal call was made. Checked and set at delivery time (on `queue`, or on the
    /// caller's thread for synchronous requests), under the mutex.
    private let terminated = Mutex(false)

    init(
        id: RequestID, wantsPreview: Bool, placeholder: PixelBuffer?, progressHandler: (@Sendable (Double) -> Void)?,
        handler: @escaping @Sendable (LoadEvent<Value>, ResultInfo) -> Void
    ) {
        self.id = id
        self.wantsPreview = wantsPreview
        self.placeholder = placeholder
        self.progressHandler = progressHandler
        self.handler = handler
        queue = DispatchQueue(label: "livepair.request.\(id.rawValue)")
    }

    /// Calls the handler with `event` on the request's queue, unless it already had its terminal call.
    func deliver(_ event: LoadEvent<Value>) {
        queue.async { [self] in deliverNow(event) }
    }

    /// Calls the handler with `event` on the current thread (synchronous requests).
    func deliverNow(_ event: LoadEvent<Value>) {
        let isTerminal: Bool
        let info: ResultInfo
        switch event {
        case let .preview(_, source):
            isTerminal = false
            info = ResultInfo(requestID: id, isDegraded: true, isCancelled: false, error: nil, degradedSource: source)
        case .final:
            isTerminal = true
            info = ResultInfo(requestID: id, isDegraded: false, isCancelled: false, error: nil)
        case let .failure(error):
            isTerminal = true
            info = ResultInfo(requestID: id, isDegraded: false, isCancelled: error == .cancelled, error: error)
        }
        let proceed = terminated.withLock { done in
            if done { return false }
            if isTerminal { done = true }
            return true
        }
        if proceed { handler(event, info) }
    }

    /// Reports progress on the request's queue, unless the request already ended.
    func progress(_ fraction: Double) {
        guard let progressHandler else { return }
        queue.async { [self] in
            if !terminated.withLock({ $0 }) { progressHandler(fraction) }
        }
    }
}
