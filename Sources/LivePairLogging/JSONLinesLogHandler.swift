import Foundation
import Synchronization

/// Writes each message as one JSON object on one line (`time`, `level`, `label`, `message`, then
/// the metadata keys), to a file descriptor (standard output by default). Lines from concurrent
/// threads never interleave: each is written with one `write(2)` under a lock.
public struct JSONLinesLogHandler: LogHandler {
    /// The lowest level written.
    public let logLevel: LogLevel
    private let output: Output

    /// A handler writing to file descriptor `fileDescriptor` from `level` up.
    public init(fileDescriptor: Int32 = 1, level: LogLevel = .info) {
        logLevel = level
        output = Output(fileDescriptor: fileDescriptor)
    }

    /// Writes one line.
    public func log(level: LogLevel, message: String, metadata: LogMetadata, label: String) {
        output.write(Self.line(level: level, message: message, metadata: metadata, label: label))
    }

    /// The JSON line for a message (without the newline): fixed keys first, metadata keys sorted.
    public static func line(level: LogLevel, message: String, metadata: LogMetadata, label: String) -> String {
        let time = Date().timeIntervalSince1970
        var fields = [
            "\"time\":\(String(format: "%.3f", time))", "\"level\":\(quoted(level.name))",
            "\"label\":\(quoted(label))", "\"message\":\(quoted(message))",
        ]
        for key in metadata.keys.sorted() where !["time", "level", "label", "message"].contains(key) {
            fields.append("\(quoted(key)):\(json(metadata[key] ?? .string("")))")
        }
        return "{" + fields.joined(separator: ",") + "}"
    }

    private static func json(_ value: LogValue) -> String {
        switch value {
        case let .string(text): return quoted(text)
        case let .int(number): return String(number)
        case let .double(number): return number.isFinite ? String(format: "%.3f", number) : "null"
        case let .bool(flag): return flag ? "true" : "false"
        }
    }

    /// `text` as a JSON string literal (quotes, backslashes and control characters escaped).
    public static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// The destination, shared by copies of the handler.
    private final class Output: Sendable {
        let fileDescriptor: Int32
        let lock = Mutex(())

        init(fileDescriptor: Int32) { self.fileDescriptor = fileDescriptor }

        func write(_ line: String) {
            let bytes = Array((line + "\n").utf8)
            lock.withLock { _ in
                var written = 0
                while written < bytes.count {
                    let result = bytes.withUnsafeBytes { buffer in
                        Foundation.write(fileDescriptor, buffer.baseAddress! + written, buffer.count - written)
                    }
                    if result <= 0 { return }
                    written += result
                }
            }
        }
    }
}
