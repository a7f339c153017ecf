#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A local file that held a stored resource's bytes when they were stored (the upload the ingestor
/// has just stored, still in place until its commit), so the new asset can be read from it instead
/// of from the store: with an object store, no transfer back of what the node has just sent.
///
/// The file's status is taken *before* the store reads it, and the file is used only while its
/// status is unchanged (same device, inode, size, modification and status-change times): a file
/// written to, truncated or replaced since is never taken for the stored bytes, and readers fall
/// back to the store.
struct LocalCopy: Sendable, Hashable {
    /// The file.
    let path: String
    private let fingerprint: Fingerprint

    /// What identifies one version of a file.
    private struct Fingerprint: Sendable, Hashable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: Int64
        var modifiedNanoseconds: Int64
        var changed: Int64
        var changedNanoseconds: Int64

        init?(_ path: String) {
            guard let info = POSIXFile.status(path), POSIXFile.isRegular(info) else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modified = Int64(info.st_mtim.tv_sec)
            modifiedNanoseconds = Int64(info.st_mtim.tv_nsec)
            changed = Int64(info.st_ctim.tv_sec)
            changedNanoseconds = Int64(info.st_ctim.tv_nsec)
        }
    }

    /// The file at `path` as it is now, or nil when it is not a regular file.
    init?(path: String) {
        guard let fingerprint = Fingerprint(path) else { return nil }
        self.path = path
        self.fingerprint = fingerprint
    }

    /// True when the file at `path` is still the one seen at `init` (nothing wrote to it or replaced it).
    var isUnchanged: Bool { Fingerprint(path) == fingerprint }
}
