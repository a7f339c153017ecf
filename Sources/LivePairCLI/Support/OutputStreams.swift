import Foundation
import LivePairFormats

#if canImport(Glibc)
    import Glibc
#endif

/// Where a command writes: standard output for results, standard error for messages and progress.
/// Tests capture both; the executable writes to the process streams (bytes straight to the file
/// descriptors, without `Data` or `FileHandle`).
public final class OutputStreams: @unchecked Sendable {
    // Sendable: the writers are called under `lock`.
    private let lock = NSLock()
    private let writeOutput: @Sendable (UnsafeRawBufferPointer) -> Void
    private let writeError: @Sendable (UnsafeRawBufferPointer) -> Void
    /// True when standard error is a terminal (progress is shown only then).
    public let errorIsTerminal: Bool

    /// Streams that call the given writers with the text written.
    public convenience init(
        errorIsTerminal: Bool = false, output: @escaping @Sendable (String) -> Void,
        error: @escaping @Sendable (String) -> Void
    ) {
        self.init(
            errorIsTerminal: errorIsTerminal, outputBytes: { output(String(decoding: $0, as: UTF8.self)) },
            errorBytes: { error(String(decoding: $0, as: UTF8.self)) })
    }

    /// Streams that call the given writers with the bytes written.
    public init(
        errorIsTerminal: Bool = false, outputBytes: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
        errorBytes: @escaping @Sendable (UnsafeRawBufferPointer) -> Void
    ) {
        self.errorIsTerminal = errorIsTerminal
        self.writeOutput = outputBytes
        self.writeError = errorBytes
    }

    /// The process's standard output and standard error.
    public static func standard() -> OutputStreams {
        OutputStreams(
            errorIsTerminal: isatty(2) == 1, outputBytes: { writeAll($0, to: 1) }, errorBytes: { writeAll($0, to: 2) })
    }

    /// Writes all of `bytes` to `descriptor`, retrying partial and interrupted writes; stops
    /// silently when the reader is gone (a closed pipe), as `FileHandle` did.
    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return
            }
        }
    }

    /// Writes `text` to standard output.
    public func print(_ text: String, terminator: String = "\n") {
        var buffer = OutputBuffer(capacity: text.utf8.count + terminator.utf8.count)
        buffer.append(text)
        buffer.append(terminator)
        write(buffer.bytes)
    }

    /// Writes `value` as indented JSON and a line break to standard output, rendered into one byte buffer.
    public func print(_ value: JSONElement) {
        var buffer = OutputBuffer(capacity: 1 << 16)
        value.write(into: &buffer, indent: 2, level: 0)
        buffer.append(UInt8(ascii: "\n"))
        write(buffer.bytes)
    }

    /// Writes `bytes` to standard output.
    package func write(_ bytes: [UInt8]) {
        lock.lock()
        defer { lock.unlock() }
        bytes.withUnsafeBytes { writeOutput($0) }
    }

    /// Writes `text` to standard error.
    public func printError(_ text: String, terminator: String = "\n") {
        var buffer = OutputBuffer(capacity: text.utf8.count + terminator.utf8.count)
        buffer.append(text)
        buffer.append(terminator)
        lock.lock()
        defer { lock.unlock() }
        buffer.bytes.withUnsafeBytes { writeError($0) }
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
