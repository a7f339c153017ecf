/// What `PhotoLibrary.open(at:configuration:)` may do when the directory holds no library yet.
///
/// Whatever the mode, a directory that has entries must hold a healthy library (a catalog this
/// build recognises, a resource store, both carrying the same library identity); anything else is
/// refused with `LibraryError.notALibrary` and nothing in it is changed or deleted.
public enum LibraryOpenMode: Sendable, Hashable {
    /// Opens a library that exists; a missing or empty directory is refused with
    /// `LibraryError.libraryNotFound`. Nothing is created.
    case openExisting
    /// Opens the library, or creates a new one when the directory does not exist or is empty
    /// (an import into a new folder).
    case createIfNeeded
    /// Creates a new library (`livepair library init`): the directory must not exist or be empty,
    /// else `LibraryError.directoryNotEmpty`.
    case createNew
}

/// Whether a library is opened to change it.
public enum LibraryAccess: Sendable, Hashable {
    /// Changes allowed; opening recovers from interrupted work (temporary files no one holds,
    /// unreferenced resource files past the grace period).
    case readWrite
    /// Reads only: opening removes nothing and migrates nothing; `performChanges` and
    /// `removeUnreferencedResources` throw `LibraryError.readOnlyLibrary`.
    case readOnly
}

/// Why a directory that has entries is not a library this build may open.
public enum LibraryProblem: Sendable, Hashable, CustomStringConvertible {
    /// There is no catalog file.
    case catalogMissing
    /// The catalog file is empty (zero bytes, or a database without any table).
    case catalogEmpty
    /// The catalog is not a LivePair catalog (another file format or another schema).
    case catalogForeign(String)
    /// The resource store directory is missing.
    case storeMissing
    /// The catalog and the resource store belong to different libraries.
    case identityMismatch(catalog: String, store: String)
    /// The library's creation was interrupted, yet its store holds resource files.
    case creationInterrupted

    /// A phrase for messages.
    public var description: String {
        switch self {
        case .catalogMissing: return "its catalog is missing"
        case .catalogEmpty: return "its catalog is empty"
        case let .catalogForeign(reason): return "its catalog is not a LivePair catalog (\(reason))"
        case .storeMissing: return "its resource store is missing"
        case let .identityMismatch(catalog, store):
            return "its catalog (library \(catalog)) and its resource store (library \(store)) belong to different libraries"
        case .creationInterrupted: return "its creation was interrupted, yet its store holds files"
        }
    }
}
