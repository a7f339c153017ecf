#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LivePairFormats

/// A hidden staging folder (`.livepair-staging-<random>/`) owned by one live packaging run.
///
/// The folder is created under a provisional name (`.livepair-creating-<random>`), gets a `lock`
/// file locked with `flock(LOCK_EX)`, and only then is renamed to its staging name: every staging
/// folder a run can see holds a lock, and the lock is held exactly as long as its owner lives (the
/// kernel releases it when the process dies, in any PID namespace). `StagingRecovery` takes a
/// folder whose lock it can get for a dead run's leftover.
final class StagingFolder {
    /// The folder's path.
    let path: String
    /// The open, locked `lock` file; -1 once released.
    private var lockDescriptor: Int32

    /// The prefix of staging folder names.
    static let prefix = ".livepair-staging-"
    /// The prefix of folders still being created.
    static let creatingPrefix = ".livepair-creating-"
    /// The lock file's name inside a staging folder.
    static let lockName = "lock"

    private init(path: String, lockDescriptor: Int32) {
        self.path = path
        self.lockDescriptor = lockDescriptor
    }

    deinit { releaseLock() }

    /// Creates and locks a new staging folder in `directory`.
    static func create(in directory: String) throws(PackagingError) -> StagingFolder {
        for _ in 0..<16 {
            let token = String(UInt64.random(in: 0...UInt64.max) & 0xFFFF_FFFF_FFFF, radix: 16)
            let provisional = "\(directory)/\(creatingPrefix)\(token)"
            let folder = "\(directory)/\(prefix)\(token)"
            guard FileSystemPath.mkdir(provisional, 0o700) == 0 else {
                if errno == EEXIST { continue }
                throw .format(.io(path: provisional, reason: FileSystemPath.errorText(errno)))
            }
            let descriptor = FileSystemPath.open("\(provisional)/\(lockName)", O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard descriptor >= 0, flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                let reason = FileSystemPath.errorText(errno)
                if descriptor >= 0 { close(descriptor) }
                FileSystemPath.unlink("\(provisional)/\(lockName)")
                FileSystemPath.removeDirectory(provisional)
                throw .format(.io(path: provisional, reason: reason))
            }
            guard FileSystemPath.linkStatus(folder) == nil, FileSystemPath.rename(provisional, folder) == 0 else {
                close(descriptor)
                FileSystemPath.unlink("\(provisional)/\(lockName)")
                FileSystemPath.removeDirectory(provisional)
                continue
            }
            ActiveStaging.shared.insert(folder)
            return StagingFolder(path: folder, lockDescriptor: descriptor)
        }
        throw .format(.io(path: directory, reason: "no staging folder name was free"))
    }

    /// Removes every file in the folder, the folder, and then releases the lock.
    func remove() {
        StagingRecovery.remove(path)
        ActiveStaging.shared.remove(path)
        releaseLock()
    }

    private func releaseLock() {
        if lockDescriptor >= 0 {
            close(lockDescriptor)
            lockDescriptor = -1
        }
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
