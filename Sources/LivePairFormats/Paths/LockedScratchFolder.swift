#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A folder of scratch files that one process holds under an exclusive `flock` on a lock file
/// inside it, for as long as the value lives (or the process does, if it keeps the value).
///
/// The folder is made under a provisional name, gets its lock file, is locked, and only then is
/// renamed to its final name: no process ever sees a final-named folder unlocked. The kernel
/// releases the lock when its owner dies, in any PID namespace or container, so a folder whose lock
/// another process can take belongs to a process that is gone, and `removeAbandoned` (run by the
/// next start) removes it. A process ID is never used to decide that, since another namespace may
/// reuse it. Used by packaging's staging folders, `serve`'s spool and the tests' scratch folders.
public final class LockedScratchFolder: Sendable {
    /// The folder's path.
    public let path: String
    /// The lock file's name inside the folder.
    public let lockName: String
    /// The open, locked lock file; -1 once released (or for a folder claimed without a lock file).
    private let lockDescriptor: Atomic<Int32>

    private init(path: String, lockName: String, lockDescriptor: Int32) {
        self.path = path
        self.lockName = lockName
        self.lockDescriptor = Atomic(lockDescriptor)
    }

    deinit { release() }

    /// Creates and locks a new folder `<directory>/<prefix><token>` (a random token), made as
    /// `<directory>/<provisionalPrefix><token>` and renamed once locked. `directory` must exist;
    /// `provisionalPrefix` must be a name no sweep of `directory` takes for a final folder.
    public static func create(
        in directory: String, prefix: String, provisionalPrefix: String, lockName: String = ".lock",
        permissions: mode_t = 0o700
    ) throws(FormatError) -> LockedScratchFolder {
        for _ in 0..<16 {
            let token = String(UInt64.random(in: 0...UInt64.max) & 0xFFFF_FFFF_FFFF, radix: 16)
            let provisional = "\(directory)/\(provisionalPrefix)\(token)"
            let folder = "\(directory)/\(prefix)\(token)"
            guard FileSystemPath.mkdir(provisional, permissions) == 0 else {
                if errno == EEXIST { continue }
                throw .io(path: provisional, reason: FileSystemPath.errorText(errno))
            }
            let lock = "\(provisional)/\(lockName)"
            let descriptor = FileSystemPath.open(lock, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard descriptor >= 0, flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                let reason = FileSystemPath.errorText(errno)
                if descriptor >= 0 { close(descriptor) }
                FileSystemPath.unlink(lock)
                FileSystemPath.removeDirectory(provisional)
                throw .io(path: provisional, reason: reason)
            }
            guard FileSystemPath.linkStatus(folder) == nil, FileSystemPath.rename(provisional, folder) == 0 else {
                close(descriptor)
                FileSystemPath.unlink(lock)
                FileSystemPath.removeDirectory(provisional)
                continue
            }
            return LockedScratchFolder(path: folder, lockName: lockName, lockDescriptor: descriptor)
        }
        throw .io(path: directory, reason: "no scratch folder name was free")
    }

    /// What `claimAbandoned` found.
    public enum Claim: Sendable {
        /// The folder's lock was free and is now held by this process: its owner is gone.
        case claimed(LockedScratchFolder)
        /// Another process holds the lock: the folder is in use.
        case held
        /// The folder has no lock file (`errno` of the failed `open`): not one of these folders,
        /// one being removed right now, or one from a version without locks.
        case noLock(errno: Int32)
    }

    /// Takes the lock of the existing folder `path` if no process holds it.
    public static func claimAbandoned(_ path: String, lockName: String = ".lock") -> Claim {
        let descriptor = FileSystemPath.open("\(path)/\(lockName)", O_RDWR | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return .noLock(errno: errno) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return .held
        }
        return .claimed(LockedScratchFolder(path: path, lockName: lockName, lockDescriptor: descriptor))
    }

    /// Removes, in `directory`, every folder whose name `isScratch` accepts and whose lock no
    /// process holds; returns how many. A held folder, and one without a lock file, is left.
    @discardableResult
    public static func removeAbandoned(
        in directory: String, lockName: String = ".lock", where isScratch: (String) -> Bool
    ) -> Int {
        var removed = 0
        for name in FileSystemPath.names(in: directory) ?? [] where isScratch(name) {
            guard case let .claimed(folder) = claimAbandoned("\(directory)/\(name)", lockName: lockName) else { continue }
            folder.remove()
            removed += 1
        }
        return removed
    }

    /// Removes everything in the folder, the lock file last, and the folder; then releases the lock.
    public func remove() {
        Self.removeFolder(path, lockName: lockName)
        release()
    }

    /// Releases the lock and leaves the folder as it is.
    public func release() {
        let descriptor = lockDescriptor.exchange(-1, ordering: .acquiringAndReleasing)
        if descriptor >= 0 { close(descriptor) }
    }

    /// Removes the folder `path`: its entries (folders in it with all they hold; links themselves,
    /// never what they point to), then its lock file `lockName`, then the folder itself.
    public static func removeFolder(_ path: String, lockName: String) {
        removeEntries(of: path, keeping: lockName)
        FileSystemPath.unlink("\(path)/\(lockName)")
        FileSystemPath.removeDirectory(path)
    }

    private static func removeEntries(of path: String, keeping kept: String?) {
        guard let listing = FileSystemPath.listing(of: path) else { return }
        for entry in listing.entries where entry.name != kept {
            let child = "\(path)/\(entry.name)"
            if isDirectory(child, entry.kind) {
                removeEntries(of: child, keeping: nil)
                FileSystemPath.removeDirectory(child)
            } else {
                FileSystemPath.unlink(child)
            }
        }
    }

    private static func isDirectory(_ path: String, _ kind: FileSystemPath.EntryKind) -> Bool {
        switch kind {
        case .directory: return true
        case .unknown: return FileSystemPath.linkStatus(path).map { $0.st_mode & S_IFMT == S_IFDIR } ?? false
        default: return false
        }
    }
}
