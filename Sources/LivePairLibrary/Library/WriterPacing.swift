import Foundation

/// How a long series of write transactions (a large deletion, a large clean-up) leaves room for
/// other writers: between two transactions it pauses for as long as the last one took (at most
/// 50 ms), so it holds the catalog's write lock at most about half the time. Without the pause the
/// next transaction would take the lock again at once, while a waiting writer (polling in SQLite's
/// busy handler) is asleep, and could starve it past its busy timeout.
enum WriterPacing {
    /// The longest pause.
    static let longestPause: Duration = .milliseconds(50)

    /// Sleeps for the time since `start` (the last transaction's start), at most `longestPause`.
    static func yieldLock(after start: ContinuousClock.Instant) {
        let pause = min(ContinuousClock.now - start, longestPause)
        let (seconds, attoseconds) = pause.components
        let microseconds = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        if microseconds > 0 { usleep(UInt32(microseconds)) }
    }
}
