#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LivePairFormats

/// The store's temporary files (`<directory>/.tmp/<random>.tmp`): each is held under an exclusive
/// `flock` by its writer from the moment its name exists until the name is gone (renamed into
/// place or unlinked). Clean-up removes a temporary file only when it can take that lock itself,
/// that is when no process, in any container or PID namespace, is writing it.
extension DirectoryStore {
    /// Removes the temporary files no one holds the lock of (their writer finished or died);
    /// returns how many. Best effort: a file that cannot be opened or removed is left.
    @discardableResult
    public func removeAbandonedTemporaryFiles() -> Int {
        guard let names = try? POSIXFile.names(in: temporaryDirectory) else { return 0 }
        var removed = 0
        for name in names where name.hasSuffix(".tmp") {
            let path = "\(temporaryDirectory)/\(name)"
            let descriptor = FileSystemPath.open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
            guard descriptor >= 0 else { continue }
            // Unlinked while the lock is held, so a writer that locks the file next sees that its
            // name is gone (`createTemporaryFile` checks) and starts over with another.
            if POSIXFile.lockExclusively(descriptor, waiting: false),
                POSIXFile.names(path, theFileOpenAs: descriptor), FileSystemPath.unlink(path) == 0
            {
                removed += 1
            }
            close(descriptor)
        }
        return removed
    }

    /// A fresh temporary file name: `<random>.tmp`.
    func temporaryName() -> String {
        "\(temporaryDirectory)/\(String(UInt64.random(in: 0...UInt64.max), radix: 36)).tmp"
    }

    /// Creates a new temporary file for writing, locked: the lock is held until the descriptor is
    /// closed, which callers do only after the name is renamed or unlinked.
    func createTemporaryFile() throws(ResourceStoreError) -> (String, Int32) {
        while true {
            let name = temporaryName()
            guard let descriptor = try POSIXFile.createExclusive(name) else { continue }
            // A clean-up may have locked and unlinked the new file before this lock: then start over.
            if POSIXFile.lockExclusively(descriptor, waiting: true), POSIXFile.names(name, theFileOpenAs: descriptor) {
                return (name, descriptor)
            }
            close(descriptor)
        }
    }

    /// Opens and locks the temporary hard link `temporary` made to a file being moved in; nil
    /// (with the link removed) when it cannot be locked at once (someone else locks that inode, or
    /// a clean-up removed the link), so the caller copies the file instead.
    func lockLinkedTemporary(_ temporary: String) -> Int32? {
        guard let descriptor = try? POSIXFile.openForReading(temporary) else {
            FileSystemPath.unlink(temporary)
            return nil
        }
        if POSIXFile.lockExclusively(descriptor, waiting: false), POSIXFile.names(temporary, theFileOpenAs: descriptor) {
            return descriptor
        }
        FileSystemPath.unlink(temporary)
        close(descriptor)
        return nil
    }

    /// Removes a temporary file and then releases its lock.
    func discard(temporary: String, descriptor: Int32) {
        FileSystemPath.unlink(temporary)
        close(descriptor)
    }
}
