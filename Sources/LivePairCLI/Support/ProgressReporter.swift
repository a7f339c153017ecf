import Foundation

/// Shows `label done/total` on standard error while a long run goes on, only when standard error
/// is a terminal and the run is long enough to need it; erases itself when finished.
public final class ProgressReporter: @unchecked Sendable {
    // Sendable: mutable state is guarded by `lock`.
    private let lock = NSLock()
    private let streams: OutputStreams
    private let label: String
    private var total: Int
    private let minimumTotal: Int
    private let isTerminal: Bool
    private var done = 0
    private var lastDrawn = Date.distantPast

    /// A reporter for `total` steps; silent unless standard error is a terminal and `total` is at least `minimumTotal`.
    public init(streams: OutputStreams, label: String, total: Int, minimumTotal: Int = 50) {
        self.streams = streams
        self.label = label
        self.total = total
        self.minimumTotal = minimumTotal
        self.isTerminal = streams.errorIsTerminal
    }

    private var enabled: Bool { isTerminal && total >= minimumTotal }

    /// Records one finished step; redraws at most ten times a second.
    public func advance() {
        guard isTerminal else { return }
        lock.lock()
        defer { lock.unlock() }
        done += 1
        draw()
    }

    /// Records that `done` of `total` steps are finished (for work that counts its own steps).
    public func update(done: Int, total: Int) {
        guard isTerminal else { return }
        lock.lock()
        defer { lock.unlock() }
        self.done = max(self.done, done)
        self.total = total
        draw()
    }

    /// Redraws the line when enabled and at most ten times a second; `lock` is held.
    private func draw() {
        guard enabled else { return }
        let now = Date()
        if now.timeIntervalSince(lastDrawn) >= 0.1 || done == total {
            lastDrawn = now
            streams.printError("\r\(label) \(done)/\(total)", terminator: "")
        }
    }

    /// Erases the progress line.
    public func finish() {
        lock.lock()
        defer { lock.unlock() }
        guard enabled, done > 0 else { return }
        streams.printError("\r\u{1B}[K", terminator: "")
    }
}
