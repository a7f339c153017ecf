/// How a connection is opened and configured.
public struct SQLiteConnectionOptions: Sendable, Equatable {
    /// How hard SQLite pushes commits to disk (`PRAGMA synchronous`).
    public enum Synchronous: String, Sendable, Equatable {
        /// No syncing: fast, a power loss can lose or corrupt recent commits.
        case off = "OFF"
        /// In WAL mode, commits are durable once the WAL is checkpointed; a power loss can lose the last commits.
        case normal = "NORMAL"
        /// Every commit is synced to disk before it returns: durable commits.
        case full = "FULL"
    }

    /// Open read-only.
    public var readOnly: Bool
    /// Create the file when it does not exist (ignored when read-only).
    public var create: Bool
    /// Use write-ahead logging, so readers and one writer (of any process) work at once.
    public var writeAheadLog: Bool
    /// How long a statement waits for another connection's lock before failing with `SQLITE_BUSY`.
    public var busyTimeoutMilliseconds: Int32
    /// Commit durability.
    public var synchronous: Synchronous
    /// Enforce foreign keys.
    public var foreignKeys: Bool

    /// Options with durable defaults: read-write, create, WAL, 10 s busy timeout, `synchronous=FULL`, foreign keys on.
    public init(
        readOnly: Bool = false, create: Bool = true, writeAheadLog: Bool = true, busyTimeoutMilliseconds: Int32 = 10_000,
        synchronous: Synchronous = .full, foreignKeys: Bool = true
    ) {
        self.readOnly = readOnly
        self.create = create
        self.writeAheadLog = writeAheadLog
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        self.synchronous = synchronous
        self.foreignKeys = foreignKeys
    }
}
