import Foundation
import LivePairLibrary
import LivePairServer

/// Where `livepair serve` streams uploads and keeps derivatives: on the store's file system, so
/// an upload is hard-linked into the store rather than copied.
struct ServePlaces {
    /// The upload spool directory.
    let spool: String
    /// The derivative cache.
    let derivatives: any DerivativeCache

    /// An embedded library's: `<library>/.serve/uploads` and `<library>/derivatives`.
    init(library: PhotoLibrary) throws(HTTPError) {
        spool = library.directory + "/.serve/uploads"
        derivatives = try DirectoryDerivativeCache(directory: library.directory + "/derivatives", limit: Self.derivativeLimit)
    }

    /// A node's of the multi-node form. On an S3 store: the spool and local copies of derivatives
    /// in this node's S3 cache directory, derivatives shared as objects beside the store's prefix.
    /// On a directory store several nodes share: derivatives in
    /// `<store>/.derivatives` (made once, read by every node), this host's spool and temporary
    /// files in `<store>/.serve/<host>/` (leftovers are recognised by process ID, which only
    /// means something on the host that wrote them).
    init(sharedStore library: PhotoLibrary) throws(HTTPError) {
        if let objects = library.resourceStore as? S3ResourceStore {
            // An S3 store: local files in this node's S3 cache; derivatives shared through the bucket.
            spool = objects.cacheDirectory + "/serve/uploads"
            derivatives = try ObjectStoreDerivativeCache(beside: objects, localDirectory: objects.cacheDirectory + "/serve/derivatives")
            return
        }
        let host = Self.hostName
        let node = library.directory + "/.serve/" + host
        spool = node + "/uploads"
        derivatives = try DirectoryDerivativeCache(
            directory: library.directory + "/.derivatives", temporaryDirectory: node + "/derivatives", limit: Self.derivativeLimit)
    }

    /// The bound on a directory of derivatives: `LIVEPAIR_DERIVATIVE_CACHE_MAX` (default 4 GiB).
    static var derivativeLimit: UInt64 { CacheFolderBound.limitFromEnvironment("LIVEPAIR_DERIVATIVE_CACHE_MAX") }

    /// This host's name as a file name.
    static var hostName: String {
        let name = ProcessInfo.processInfo.hostName.filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." }
        return name.isEmpty || name.hasPrefix(".") ? "host" : name
    }
}
