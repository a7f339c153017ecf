#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LivePairFormats

/// A hidden staging folder (`.livepair-staging-<random>/`) owned by one live packaging run: a
/// `LockedScratchFolder` created as `.livepair-creating-<random>`, with a `lock` file locked with
/// `flock(LOCK_EX)`, and only then renamed to its staging name. Every staging folder a run can see
/// holds a lock, and the lock is held exactly as long as its owner lives (the kernel releases it
/// when the process dies, in any PID namespace). `StagingRecovery` takes a folder whose lock it can
/// get for a dead run's leftover.
final class StagingFolder {
    private let folder: LockedScratchFolder

    /// The folder's path.
    var path: String { folder.path }

    /// The prefix of staging folder names.
    static let prefix = ".livepair-staging-"
    /// The prefix of folders still being created.
    static let creatingPrefix = ".livepair-creating-"
    /// The lock file's name inside a staging folder.
    static let lockName = "lock"

    private init(_ folder: LockedScratchFolder) { self.folder = folder }

    /// Creates and locks a new staging folder in `directory`.
    static func create(in directory: String) throws(PackagingError) -> StagingFolder {
        let folder: LockedScratchFolder
        do {
            folder = try LockedScratchFolder.create(
                in: directory, prefix: prefix, provisionalPrefix: creatingPrefix, lockName: lockName)
        } catch {
            throw .format(error)
        }
        ActiveStaging.shared.insert(folder.path)
        return StagingFolder(folder)
    }

    /// Removes every file in the folder, the folder, and then releases the lock.
    func remove() {
        StagingRecovery.remove(path)
        ActiveStaging.shared.remove(path)
        folder.release()
    }

    /// Unlinks every entry of the (flat) folder at `path`.
    static func removeContents(of path: String) {
        for name in entries(of: path) { FileSystemPath.unlink("\(path)/\(name)") }
    }

    /// The names in the folder at `path`, without `.` and `..`.
    static func entries(of path: String) -> [String] {
        FileSystemPath.names(in: path) ?? []
    }

    /// Removes the (empty) directory at `path`.
    static func removeDirectory(_ path: String) { FileSystemPath.removeDirectory(path) }

    /// Flushes the directory entry changes of `directory` to disk (best effort).
    static func syncDirectory(_ directory: String) {
        let descriptor = FileSystemPath.open(directory, O_RDONLY | O_CLOEXEC)
        if descriptor >= 0 {
            _ = fsync(descriptor)
            close(descriptor)
        }
    }
}
