/// A named logger (swift-log's `Logger`): components log through it, the host decides where the
/// lines go (`LoggingSystem.bootstrap`). Values belong in metadata, never in the message text.
public struct Logger: Sendable {
    /// The component's name, for example `livepair.ingestor`.
    public let label: String
    /// Where its messages go.
    public let handler: any LogHandler

    /// A logger for `label` with the handler the logging system makes for it now.
    public init(label: String) {
        self.label = label
        handler = LoggingSystem.makeHandler(label: label)
    }

    /// A logger for `label` writing to `handler`.
    public init(label: String, handler: any LogHandler) {
        self.label = label
        self.handler = handler
    }

    /// Logs `message` at `level` with `metadata` (built only when the level passes).
    public func log(_ level: LogLevel, _ message: String, metadata: @autoclosure () -> LogMetadata = [:]) {
        guard level >= handler.logLevel else { return }
        handler.log(level: level, message: message, metadata: metadata(), label: label)
    }

    /// Logs at `.debug`.
    public func debug(_ message: String, metadata: @autoclosure () -> LogMetadata = [:]) {
        log(.debug, message, metadata: metadata())
    }

    /// Logs at `.info`.
    public func info(_ message: String, metadata: @autoclosure () -> LogMetadata = [:]) {
        log(.info, message, metadata: metadata())
    }

    /// Logs at `.warning`.
    public func warning(_ message: String, metadata: @autoclosure () -> LogMetadata = [:]) {
        log(.warning, message, metadata: metadata())
    }

    /// Logs at `.error`.
    public func error(_ message: String, metadata: @autoclosure () -> LogMetadata = [:]) {
        log(.error, message, metadata: metadata())
    }
}
