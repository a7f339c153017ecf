/// How severe a log message is, lowest first (swift-log's levels).
public enum LogLevel: Int, Sendable, Hashable, Comparable, CaseIterable {
    /// Step-by-step detail.
    case trace
    /// Detail for debugging.
    case debug
    /// Normal operation (a request served, an upload decided).
    case info
    /// Normal but worth noticing.
    case notice
    /// Something unexpected that was handled.
    case warning
    /// An operation failed.
    case error
    /// The process cannot go on.
    case critical

    /// The lowercase name written in log lines.
    public var name: String {
        switch self {
        case .trace: return "trace"
        case .debug: return "debug"
        case .info: return "info"
        case .notice: return "notice"
        case .warning: return "warning"
        case .error: return "error"
        case .critical: return "critical"
        }
    }

    /// Orders by severity.
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}
