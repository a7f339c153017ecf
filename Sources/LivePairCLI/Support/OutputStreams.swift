import Foundation

/// Where a command writes: standard output for results, standard error for messages and progress.
/// Tests capture both; the executable writes to the process streams.
public final class OutputStreams: @unchecked Sendable {
    // Sendable: the writers are called under `lock`.
    private let lock = NSLock()
    private let writeOutput: @Sendable (String) -> Void
    private let writeError: @Sendable (String) -> Void
    /// True when standard error is a terminal (progress is shown only then).
    public let errorIsTerminal: Bool

    /// Streams that call the given writers.
    public init(
        errorIsTerminal: Bool = false, output: @escaping @Sendable (String) -> Void,
        error: @escaping @Sendable (String) -> Void
    ) {
        self.errorIsTerminal = errorIsTerminal
        self.writeOutput = output
        self.writeError = error
    }

    /// The process's standard output and standard error.
    public static func standard() -> OutputStreams {
        OutputStreams(
            errorIsTerminal: isatty(2) == 1,
            output: { text in FileHandle.standardOutput.write(Data(text.utf8)) },
            error: { text in FileHandle.standardError.write(Data(text.utf8)) })
    }

    /// Writes `text` to standard output.
    public func print(_ text: String, terminator: String = "\n") {
        lock.lock()
        defer { lock.unlock() }
        writeOutput(text + terminator)
    }

    /// Writes `text` to standard error.
    public func printError(_ text: String, terminator: String = "\n") {
        lock.lock()
        defer { lock.unlock() }
        writeError(text + terminator)
    }
}

/// Streams that collect everything written, for tests.
public final class CapturedOutput: @unchecked Sendable {
    // Sendable: the buffers are guarded by `lock`.
    private let lock = NSLock()
    private var outputText = ""
    private var errorText = ""

    /// An empty capture.
    public init() {}

    /// Everything written to standard output.
    public var output: String { lock.withLock { outputText } }
    /// Everything written to standard error.
    public var error: String { lock.withLock { errorText } }

    /// Streams that append to this capture.
    public func streams(errorIsTerminal: Bool = false) -> OutputStreams {
        OutputStreams(
            errorIsTerminal: errorIsTerminal,
            output: { [self] text in lock.withLock { outputText += text } },
            error: { [self] text in lock.withLock { errorText += text } })
    }
}
