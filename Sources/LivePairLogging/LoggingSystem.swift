import Synchronization

/// The process-wide choice of log handler (swift-log's `LoggingSystem`). Until `bootstrap` is
/// called every logger drops its messages.
public enum LoggingSystem {
    private static let factory = Mutex<@Sendable (String) -> any LogHandler>({ _ in NoOpLogHandler() })

    /// Makes every logger created from now on write through the handler `factory` returns for its label.
    public static func bootstrap(_ factory: @escaping @Sendable (_ label: String) -> any LogHandler) {
        self.factory.withLock { $0 = factory }
    }

    /// The handler for a new logger labelled `label`.
    static func makeHandler(label: String) -> any LogHandler {
        let make = factory.withLock { $0 }
        return make(label)
    }
}
