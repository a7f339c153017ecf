public import LivePair
public import LivePairPostgres
public import LivePairSQLite

/// Why a library operation failed. A failed `performChanges` batch changed nothing.
public enum LibraryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A Live Photo's halves did not pass validation; the findings (errors and the rest) are attached.
    case invalidLivePhoto([Finding])
    /// A request was malformed: an asset without resources, a still missing, an unknown placeholder.
    case invalidRequest(String)
    /// A resource could not be read as any media format LivePair knows, or had read problems.
    case unreadableResource(name: String, reason: String)
    /// No asset or album has this local identifier.
    case notFound(localIdentifier: String)
    /// The catalog database failed.
    case catalog(SQLiteError)
    /// The PostgreSQL catalog failed (its SQLSTATE is kept: `PostgresError.isRetryable` tells a
    /// serialization failure, a deadlock or a lost connection, which a retry may cure).
    case catalogServer(PostgresError)
    /// The catalog was written by a newer LivePair (its schema version is higher than this build knows).
    case catalogTooNew(found: Int, supported: Int)
    /// The resource store failed.
    case store(ResourceStoreError)
    /// A file operation outside the store failed.
    case io(path: String, reason: String)
    /// A catalog row names a resource whose file is not in the store.
    case resourceMissing(ContentDigest)
    /// The change block threw an error of its own; its description is kept.
    case changeBlockFailed(String)
    /// A fault injected by `LibraryConfiguration.faultInjector` (crash tests) stopped the batch.
    case faultInjected(FaultPoint, String)
    /// `LibraryOpenMode.openExisting` found no library: the directory does not exist or is empty.
    case libraryNotFound(path: String)
    /// The directory has entries but is not a healthy library; nothing in it was changed.
    case notALibrary(path: String, problem: LibraryProblem)
    /// `LibraryOpenMode.createNew` on a directory that is not empty.
    case directoryNotEmpty(path: String)
    /// A change was asked of a library opened with `LibraryAccess.readOnly`.
    case readOnlyLibrary
    /// The upload ID already named other bytes of the same owner, whose outcome (`first`: an asset
    /// still there, or pending) stands: decided in the ingest transaction, so of two uploads of one
    /// ID with different bytes, on any nodes, one makes an asset and the other gets this.
    case uploadConflict(uploadID: String, first: IngestOutcome)

    /// True when the same batch applied again may succeed: the PostgreSQL catalog reported a
    /// serialization failure, a deadlock or a lost connection.
    public var isRetryableCatalogFailure: Bool {
        if case let .catalogServer(error) = self { return error.isRetryable }
        return false
    }

    /// A sentence for logs and the command line.
    public var description: String {
        switch self {
        case let .invalidLivePhoto(findings):
            let errors = findings.filter { $0.severity == .error }
            return "invalid Live Photo: "
                + (errors.isEmpty ? findings : errors).map { "\($0.code): \($0.message)" }.joined(separator: "; ")
        case let .invalidRequest(message): return "invalid request: \(message)"
        case let .unreadableResource(name, reason): return "\(name): \(reason)"
        case let .notFound(identifier): return "no asset or album with the identifier \(identifier)"
        case let .catalog(error): return "catalog: \(error)"
        case let .catalogServer(error): return "catalog: \(error)"
        case let .catalogTooNew(found, supported):
            return "the catalog has schema version \(found); this LivePair reads up to \(supported)"
        case let .store(error): return "resource store: \(error)"
        case let .io(path, reason): return "\(path): \(reason)"
        case let .resourceMissing(digest): return "the resource \(digest) is missing from the store"
        case let .changeBlockFailed(message): return "the change block failed: \(message)"
        case let .faultInjected(point, message): return "fault injected at \(point): \(message)"
        case let .libraryNotFound(path): return "\(path): no LivePair library here (the directory is missing or empty)"
        case let .notALibrary(path, problem):
            return "\(path): not a usable LivePair library: \(problem); nothing was changed"
        case let .directoryNotEmpty(path): return "\(path): the directory is not empty; a new library needs an empty one"
        case .readOnlyLibrary: return "the library is open read-only"
        case let .uploadConflict(uploadID, first):
            return "upload ID \(uploadID) already named other bytes (\(first.kind)); nothing was added"
        }
    }
}
