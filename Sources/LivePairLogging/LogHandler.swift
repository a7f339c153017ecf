/// Where log messages go (swift-log's `LogHandler`, reduced to what LivePair needs): a handler
/// decides the format and the destination; `Logger` decides nothing.
public protocol LogHandler: Sendable {
    /// Messages below this level are dropped before they are formatted.
    var logLevel: LogLevel { get }

    /// Writes one message.
    /// - Parameters:
    ///   - level: its severity.
    ///   - message: what happened, in a few words (constant text; values go into metadata).
    ///   - metadata: the values, by key.
    ///   - label: the logger's label (the component, for example `livepair.ingestor`).
    func log(level: LogLevel, message: String, metadata: LogMetadata, label: String)
}

/// Drops everything: the default, so a library that logs prints nothing until its host chooses
/// a handler with `LoggingSystem.bootstrap`.
public struct NoOpLogHandler: LogHandler {
    /// Above every level.
    public var logLevel: LogLevel { .critical }

    /// A handler that drops every message.
    public init() {}

    /// Does nothing.
    public func log(level: LogLevel, message: String, metadata: LogMetadata, label: String) {}
}
