import Foundation

/// Renews a claim's lease while its work runs: a thread of its own calls `renew` every `interval`
/// seconds until `stop()` (or until `renew` returns false: the claim is no longer held).
final class LeaseRenewal: Sendable {
    private let condition = NSCondition()
    // Guarded by `condition`.
    nonisolated(unsafe) private var stopped = false

    /// Starts renewing every `interval` seconds (at least 0.05).
    init(every interval: Double, renew: @escaping @Sendable () -> Bool) {
        let interval = max(0.05, interval)
        let thread = Thread { [self] in
            while true {
                condition.lock()
                let deadline = Date().addingTimeInterval(interval)
                while !stopped && Date() < deadline { _ = condition.wait(until: deadline) }
                let done = stopped
                condition.unlock()
                if done || !renew() { return }
            }
        }
        thread.name = "livepair.jobs.lease"
        thread.start()
    }

    /// Stops renewing (the work is done); no renewal starts after this returns.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }
}
