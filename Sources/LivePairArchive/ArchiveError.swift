/// Why an archive part could not be read (to its end).
public enum ArchiveError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be opened or is no archive libarchive reads (zip, tar, tar.gz).
    case unreadable(archive: String, reason: String)
    /// The archive is damaged at `member` (nil: between members).
    case damaged(archive: String, member: String?, reason: String)
    /// A bound of `ArchiveLimits` was passed: `limit` names it.
    case limitExceeded(archive: String, member: String?, limit: String, value: UInt64, maximum: UInt64)

    /// A stable kebab-case code for reports: `unreadable-archive`, `damaged-archive`, `archive-limit-exceeded`.
    public var code: String {
        switch self {
        case .unreadable: return "unreadable-archive"
        case .damaged: return "damaged-archive"
        case .limitExceeded: return "archive-limit-exceeded"
        }
    }

    /// What went wrong, naming the member but not the archive.
    public var reason: String {
        switch self {
        case let .unreadable(_, reason):
            return "not a readable archive: \(reason)"
        case let .damaged(_, member, reason):
            return "damaged" + (member.map { " at \($0)" } ?? "") + ": \(reason)"
        case let .limitExceeded(_, member, limit, value, maximum):
            return (member.map { "\($0): " } ?? "") + "\(limit) \(value) is above the limit \(maximum)"
        }
    }

    /// The archive this error is about.
    public var archive: String {
        switch self {
        case let .unreadable(archive, _), let .damaged(archive, _, _), let .limitExceeded(archive, _, _, _, _): return archive
        }
    }

    /// What went wrong, naming the archive and member.
    public var description: String { archive + ": " + reason }

}
