import Synchronization

/// Keeps the observers and the last change-log sequence this library instance has delivered,
/// and hands each newly committed batch (of any process) to the observers exactly once.
final class ChangeNotifier: Sendable {
    private struct State {
        var lastDeliveredSequence: Int64
        var observers: [ObjectIdentifier: any LibraryChangeObserver] = [:]
        var streams: [Int: AsyncStream<LibraryChange>.Continuation] = [:]
        var nextStreamIdentifier = 0
    }

    private let state: Mutex<State>
    /// Held while changes are read and delivered, so observers see batches in commit order.
    private let delivery = Mutex(())
    /// True on the task or thread that is calling observers (an observer that fetches or commits
    /// must not wait for the delivery it is part of; its own changes are delivered next time).
    @TaskLocal private static var isDelivering = false

    /// A notifier that considers everything up to `sequence` delivered.
    init(deliveredThrough sequence: Int64) {
        state = Mutex(State(lastDeliveredSequence: sequence))
    }

    /// Adds `observer` (kept until unregistered).
    func register(_ observer: any LibraryChangeObserver) {
        state.withLock { $0.observers[ObjectIdentifier(observer)] = observer }
    }

    /// Removes `observer`.
    func unregister(_ observer: any LibraryChangeObserver) {
        _ = state.withLock { $0.observers.removeValue(forKey: ObjectIdentifier(observer)) }
    }

    /// True when anyone listens.
    var hasListeners: Bool { state.withLock { !$0.observers.isEmpty || !$0.streams.isEmpty } }

    /// A stream of every change delivered from now on.
    func makeStream() -> AsyncStream<LibraryChange> {
        let (stream, continuation) = AsyncStream<LibraryChange>.makeStream(bufferingPolicy: .unbounded)
        let identifier = state.withLock { state in
            let identifier = state.nextStreamIdentifier
            state.nextStreamIdentifier += 1
            state.streams[identifier] = continuation
            return identifier
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.streams.removeValue(forKey: identifier) }
        }
        return stream
    }

    /// Reads the batches committed since the last delivery with `readChanges` and hands them to
    /// the observers and streams as one change. Returns the change, or nil when there was none.
    @discardableResult
    func deliver(_ readChanges: (Int64) throws(LibraryError) -> [CatalogChange]) throws(LibraryError) -> LibraryChange? {
        if Self.isDelivering { return nil }
        var outcome: Result<LibraryChange?, LibraryError> = .success(nil)
        delivery.withLock { _ in
            let since = state.withLock { $0.lastDeliveredSequence }
            let changes: [CatalogChange]
            do throws(LibraryError) {
                changes = try readChanges(since)
            } catch {
                outcome = .failure(error)
                return
            }
            guard let last = changes.last else { return }
            let change = LibraryChange(changes)
            let (observers, streams) = state.withLock { state in
                state.lastDeliveredSequence = last.sequence
                return (Array(state.observers.values), Array(state.streams.values))
            }
            Self.$isDelivering.withValue(true) {
                for observer in observers { observer.photoLibraryDidChange(change) }
            }
            for stream in streams { stream.yield(change) }
            outcome = .success(change)
        }
        return try outcome.get()
    }

    /// Considers every batch up to `sequence` delivered (used when nobody listened to them).
    func markDelivered(through sequence: Int64) {
        let mark = { self.state.withLock { $0.lastDeliveredSequence = max($0.lastDeliveredSequence, sequence) } }
        if Self.isDelivering {
            mark()  // called by an observer: the delivery lock is this thread's already
        } else {
            delivery.withLock { _ in mark() }
        }
    }

    /// The last sequence delivered.
    var lastDeliveredSequence: Int64 { state.withLock { $0.lastDeliveredSequence } }
}
