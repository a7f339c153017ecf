/// Where the bytes of a resource added by a creation request come from.
enum ResourceSource: Sendable, Hashable {
    /// A file, copied into the store.
    case copy(path: String)
    /// A file, moved into the store (hard-linked now, unlinked after the commit).
    case move(path: String)
    /// Bytes held in memory.
    case data([UInt8])
    /// A resource already in the library's store.
    case stored(StoredResource)

    /// The source file's name (last path component), for files.
    var fileName: String? {
        switch self {
        case let .copy(path), let .move(path):
            return path.split(separator: "/").last.map(String.init)
        case .data, .stored:
            return nil
        }
    }
}

/// One resource a creation request adds.
struct ResourceAddition: Sendable, Hashable {
    /// Its type within the asset.
    var type: AssetResourceType
    /// Where its bytes come from.
    var source: ResourceSource
    /// Name and type identifier to record; whether to move.
    var options: AssetResourceCreationOptions
    /// For a `.stored` resource: the upload it was stored from, still on this machine, which the
    /// new asset is read from instead of the store while it is unchanged.
    var localCopy: LocalCopy? = nil

    /// The name recorded as the original file name.
    var originalFilename: String? { options.originalFilename ?? source.fileName }
}
