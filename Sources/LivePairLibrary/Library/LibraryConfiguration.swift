import Foundation

/// How a library is opened.
public struct LibraryConfiguration: Sendable {
    /// Commit durability: `true` (the default) syncs every commit to disk (`synchronous=FULL`).
    public var durableCommits: Bool
    /// How long a writer waits for another process's write transaction, in milliseconds.
    public var busyTimeoutMilliseconds: Int32
    /// On open, resource files no row or record uses are removed when their last status change is
    /// at least this many seconds old. Younger files may belong to a batch another process is
    /// committing right now. Tests set 0.
    public var orphanGracePeriod: Double
    /// Decode the still and the movie frame when validating a new Live Photo (slower).
    public var deepValidation: Bool
    /// Observers hear other processes' and nodes' commits as soon as they commit, without
    /// `pollForChanges`, when the catalog can push them (PostgreSQL: `LISTEN`/`NOTIFY` on a
    /// connection of its own). Off by default: observers then hear them on the next poll, fetch or
    /// change, as with the SQLite catalog.
    public var hearsOtherProcessesAtOnce: Bool = false
    /// Called just before each durable step of a change batch (crash tests). Throwing fails the batch
    /// when the step is before the commit; after the commit it stops the remaining clean-up (the
    /// batch stays committed, and recovery removes what is left).
    public var faultInjector: (@Sendable (FaultPoint) throws -> Void)?
    /// Whether opening may create a library (default `.createIfNeeded`: only in a directory that
    /// does not exist or is empty). A directory with entries must always hold a healthy library.
    public var openMode: LibraryOpenMode
    /// Read-write (the default) or read-only: a read-only library never removes or writes anything.
    public var access: LibraryAccess
    /// How long a server catalog's transaction is tried again after a lost connection, a
    /// serialization failure or a deadlock, in seconds (no new try starts later): with the
    /// connection timeouts (`docs/deployment.md`), it bounds how long a change waits for a server
    /// it cannot reach before it fails. Default 30, or `LIVEPAIR_CATALOG_RETRY_SECONDS`.
    public var catalogRetrySeconds: Double = LibraryConfiguration.catalogRetrySecondsFromEnvironment

    /// The defaults: durable commits, 10 s busy timeout, a 1-hour grace period for orphans, no fault
    /// injection, a library created only in a missing or empty directory, read-write.
    public init(
        durableCommits: Bool = true, busyTimeoutMilliseconds: Int32 = 10_000, orphanGracePeriod: Double = 3600,
        deepValidation: Bool = false, faultInjector: (@Sendable (FaultPoint) throws -> Void)? = nil,
        openMode: LibraryOpenMode = .createIfNeeded, access: LibraryAccess = .readWrite
    ) {
        self.openMode = openMode
        self.access = access
        self.durableCommits = durableCommits
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        self.orphanGracePeriod = orphanGracePeriod
        self.deepValidation = deepValidation
        self.faultInjector = faultInjector
    }

    /// `LIVEPAIR_CATALOG_RETRY_SECONDS` when it holds a number of seconds at least 0, else 30.
    static var catalogRetrySecondsFromEnvironment: Double { catalogRetrySeconds(in: ProcessInfo.processInfo.environment) }

    /// `LIVEPAIR_CATALOG_RETRY_SECONDS` of `environment` when it holds a number of seconds at
    /// least 0, else 30.
    static func catalogRetrySeconds(in environment: [String: String]) -> Double {
        guard let text = environment["LIVEPAIR_CATALOG_RETRY_SECONDS"], let seconds = Double(text), seconds >= 0, seconds.isFinite
        else { return 30 }
        return seconds
    }
}
