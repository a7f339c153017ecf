import Foundation
import LivePairLogging
import Synchronization
import Testing

/// The logging facade: JSON lines, escaping, level filtering.
@Suite struct LoggingTests {
    @Test func jsonLinesEscapeAndKeepTypes() throws {
        let line = JSONLinesLogHandler.line(
            level: .info, message: "a \"quoted\"\nline",
            metadata: ["status": 201, "ms": 1.5, "name": "x\u{1}\\y", "ok": true, "message": "ignored"], label: "t")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["message"] as? String == "a \"quoted\"\nline")
        #expect(object["status"] as? Int == 201)
        #expect(object["ms"] as? Double == 1.5)
        #expect(object["name"] as? String == "x\u{1}\\y")
        #expect(object["ok"] as? Bool == true)
        #expect(object["label"] as? String == "t")
        #expect(!line.contains("\n"))
        #expect(line.range(of: "\"message\"")!.lowerBound < line.range(of: "\"ms\"")!.lowerBound)
    }

    @Test func messagesBelowTheHandlersLevelAreDropped() {
        let handler = CapturingHandler(logLevel: .warning)
        let logger = Logger(label: "t", handler: handler)
        logger.info("dropped")
        logger.error("kept", metadata: ["n": 1])
        #expect(handler.messages() == ["kept"])
    }
}

/// Records what it is given.
final class CapturingHandler: LogHandler {
    let logLevel: LogLevel
    private let captured = Mutex<[String]>([])
    init(logLevel: LogLevel) { self.logLevel = logLevel }
    func log(level: LogLevel, message: String, metadata: LogMetadata, label: String) { captured.withLock { $0.append(message) } }
    func messages() -> [String] { captured.withLock { $0 } }
}
