/// Why bytes could not be understood. Every parser in LivePairFormats throws only this type.
///
/// Each case carries a `context` naming the structure being read (for example `"moov/trak/mdia/mdhd"`
/// or `"Exif IFD0"`), so a message can say where a file went wrong.
public enum FormatError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The data ended before a structure was complete.
    case truncated(context: String, needed: UInt64, available: UInt64)
    /// A structure is present but its content is impossible (a size smaller than its header, a bad marker).
    case invalid(context: String, reason: String)
    /// A declared size or count exceeds a limit in `ParseLimits`; nothing was allocated for it.
    case limitExceeded(context: String, limit: String, value: UInt64, maximum: UInt64)
    /// The content is not a format LivePair reads.
    case unsupported(context: String, reason: String)
    /// The file could not be read (open, stat or read failed).
    case io(path: String, reason: String)

    /// A stable kebab-case code for reports and JSON output.
    public var code: String {
        switch self {
        case .truncated: return "truncated"
        case .invalid: return "invalid-structure"
        case .limitExceeded: return "limit-exceeded"
        case .unsupported: return "unsupported-format"
        case .io: return "read-failed"
        }
    }

    /// A sentence that says what is wrong, in terms of the file.
    public var description: String {
        switch self {
        case let .truncated(context, needed, available):
            return "\(context): data ends early (needs \(needed) bytes, \(available) available)"
        case let .invalid(context, reason):
            return "\(context): \(reason)"
        case let .limitExceeded(context, limit, value, maximum):
            return "\(context): \(limit) is \(value), above the limit of \(maximum)"
        case let .unsupported(context, reason):
            return "\(context): \(reason)"
        case let .io(path, reason):
            return "\(path): \(reason)"
        }
    }
}
