import Foundation

/// Progress of a long run on standard error, shared by both executables.
///
/// - On a terminal: a bar, `\r<label> [#####-----]  37/120 files  31%`, redrawn at most ten
///   times a second and erased at the end, for runs of at least `minimumTotal` steps.
/// - Otherwise (a log, a pipe), when `periodicLines`: one line every `lineInterval` seconds
///   (default 5, `LIVEPAIR_PROGRESS_INTERVAL` to change it), `<label>: 37/120 files (31%)`; a run
///   shorter than the interval prints none.
/// - Nothing with `quiet` (the commands' `--quiet`).
///
/// Long work (`import`, `validate --deep`, `library export`, `library migrate`, ...) makes one
/// with `longWork(streams:label:unit:total:quiet:)`, calls `advance()` after each step (from any
/// thread) or `update(done:total:)` when the work counts its own steps, then `finish()`.
public final class ProgressReporter: @unchecked Sendable {
    // Sendable: mutable state is guarded by `lock`.
    private let lock = NSLock()
    private let streams: OutputStreams
    private let label: String
    private let unit: String
    private var total: Int
    private let minimumTotal: Int
    private let mode: Mode
    private var done = 0
    private var drawn = false
    private var lastDrawn = Date.distantPast
    private var lastLine: Date

    /// How progress is shown, decided once when the reporter is made.
    private enum Mode: Equatable {
        case bar
        case lines(every: Double)
        case none
    }

    /// The environment variable that sets the seconds between two progress lines when standard
    /// error is not a terminal (tests set a tiny one).
    public static let intervalEnvironmentVariable = "LIVEPAIR_PROGRESS_INTERVAL"
    /// The seconds between two progress lines by default.
    public static let defaultLineInterval = 5.0
    /// The width of the bar, in characters between the brackets.
    static let barWidth = 30

    /// A reporter for `total` steps of `unit` (a plural noun, for example `files`).
    ///
    /// - Parameters:
    ///   - minimumTotal: the bar is drawn only for runs of at least this many steps.
    ///   - quiet: show nothing.
    ///   - periodicLines: when standard error is not a terminal, print a line every few seconds.
    public init(
        streams: OutputStreams, label: String, unit: String = "files", total: Int, minimumTotal: Int = 50,
        quiet: Bool = false, periodicLines: Bool = false
    ) {
        self.streams = streams
        self.label = label
        self.unit = unit
        self.total = total
        self.minimumTotal = minimumTotal
        if quiet {
            mode = .none
        } else if streams.errorIsTerminal {
            mode = .bar
        } else if periodicLines {
            mode = .lines(every: Self.lineInterval(ProcessInfo.processInfo.environment[Self.intervalEnvironmentVariable]))
        } else {
            mode = .none
        }
        lastLine = Date()
    }

    /// The reporter of long work: a bar on a terminal from the first step, a line every few
    /// seconds otherwise, nothing when `quiet`.
    public static func longWork(streams: OutputStreams, label: String, unit: String, total: Int, quiet: Bool) -> ProgressReporter {
        ProgressReporter(streams: streams, label: label, unit: unit, total: total, minimumTotal: 1, quiet: quiet, periodicLines: true)
    }

    /// The seconds between two lines that `text` (the environment variable's value) asks for:
    /// a number of seconds at least 0, else the default.
    static func lineInterval(_ text: String?) -> Double {
        guard let text, let seconds = Double(text), seconds >= 0, seconds.isFinite else { return defaultLineInterval }
        return seconds
    }

    /// Records one finished step.
    public func advance() {
        guard mode != .none else { return }
        lock.lock()
        defer { lock.unlock() }
        done += 1
        show()
    }

    /// Records that `done` of `total` steps are finished (for work that counts its own steps).
    public func update(done: Int, total: Int) {
        guard mode != .none else { return }
        lock.lock()
        defer { lock.unlock() }
        self.done = max(self.done, done)
        self.total = total
        show()
    }

    /// Shows the progress as the mode says; `lock` is held.
    private func show() {
        let now = Date()
        switch mode {
        case .bar:
            guard total >= minimumTotal, now.timeIntervalSince(lastDrawn) >= 0.1 || done == total else { return }
            lastDrawn = now
            drawn = true
            streams.printError("\r" + Self.bar(label: label, done: done, total: total, unit: unit), terminator: "")
        case let .lines(interval):
            guard now.timeIntervalSince(lastLine) >= interval else { return }
            lastLine = now
            streams.printError(Self.line(label: label, done: done, total: total, unit: unit))
        case .none:
            return
        }
    }

    /// Erases the bar (lines stay: they are a log).
    public func finish() {
        lock.lock()
        defer { lock.unlock() }
        guard mode == .bar, drawn else { return }
        drawn = false
        streams.printError("\r\u{1B}[K", terminator: "")
    }

    /// The bar as drawn on a terminal: `<label> [#####-----]  37/120 files  31%`.
    static func bar(label: String, done: Int, total: Int, unit: String) -> String {
        let filled = total > 0 ? min(barWidth, done * barWidth / total) : 0
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: barWidth - filled)
        return "\(label) [\(bar)]  \(done)/\(total) \(unit)  \(percent(done, total))%"
    }

    /// One progress line for a log: `<label>: 37/120 files (31%)`.
    static func line(label: String, done: Int, total: Int, unit: String) -> String {
        "\(label): \(done)/\(total) \(unit) (\(percent(done, total))%)"
    }

    /// `done` of `total` in whole per cent, rounded down (100 only when done).
    private static func percent(_ done: Int, _ total: Int) -> Int {
        total > 0 ? min(100, done * 100 / total) : 0
    }
}
