import Synchronization

/// Resumes one continuation with whichever of several racing results arrives first (a decode
/// finishing, a cancellation), and drops the later ones. A result that arrives before the
/// continuation is installed is kept and delivered when it is.
final class FirstResult<Value: Sendable>: Sendable {
    private enum State {
        case waiting(CheckedContinuation<Value, Never>?)
        case arrived(Value)
        case delivered
    }

    private let state = Mutex<State>(.waiting(nil))

    /// Installs the continuation to resume; resumes it at once when a result came first.
    func install(_ continuation: CheckedContinuation<Value, Never>) {
        let early: Value? = state.withLock { state in
            switch state {
            case .waiting:
                state = .waiting(continuation)
                return nil
            case let .arrived(value):
                state = .delivered
                return value
            case .delivered:
                return nil
            }
        }
        if let early { continuation.resume(returning: early) }
    }

    /// Offers a result: the first one offered resumes the continuation, later ones are dropped.
    func offer(_ value: Value) {
        let continuation: CheckedContinuation<Value, Never>? = state.withLock { state in
            switch state {
            case let .waiting(continuation?):
                state = .delivered
                return continuation
            case .waiting(nil):
                state = .arrived(value)
                return nil
            case .arrived, .delivered:
                return nil
            }
        }
        continuation?.resume(returning: value)
    }
}
