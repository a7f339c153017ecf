import Foundation

/// Shows `label done/total` on standard error while a long run goes on, only when standard error
/// is a terminal and the run is long enough to need it; erases itself when finished.
public final class ProgressReporter: @unchecked Sendable {
    // Sendable: mutable state is guarded by `lock`.
    private let lock = NSLock()
    private let streams: OutputStreams
    private let label: String
    private let total: Int
    private let enabled: Bool
    private var done = 0
    private var lastDrawn = Date.distantPast

    /// A reporter for `total` steps; silent unless standard error is a terminal and `total` is at least `minimumTotal`.
    public init(streams: OutputStreams, label: String, total: Int, minimumTotal: Int = 50) {
        self.streams = streams
        self.label = label
        self.total = total
        self.enabled = streams.errorIsTerminal && total >= minimumTotal
    }

    /// Records one finished step; redraws at most ten times a second.
    public func advance() {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        done += 1
        let now = Date()
        if now.timeIntervalSince(lastDrawn) >= 0.1 || done == total {
            lastDrawn = now
            streams.printError("\r\(label) \(done)/\(total)", terminator: "")
        }
    }

    /// Erases the progress line.
    public func finish() {
        guard enabled else { return }
        streams.printError("\r\u{1B}[K", terminator: "")
    }
}
