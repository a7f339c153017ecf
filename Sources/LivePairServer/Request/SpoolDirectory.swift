import Foundation
import Synchronization

/// Temporary files of a serve process: each process claims a folder of its own inside a spool
/// directory (`<spool>/<UUID>/`) and holds a lock (`flock` on its `.lock` file) on it for its whole
/// life. A folder whose lock nobody holds belongs to a process that is gone (a crash or SIGKILL),
/// whatever host or PID namespace it ran in, and is removed by the next process that opens the
/// spool; a process ID is never used, since another namespace may reuse it.
public enum SpoolDirectory {
    private static let counter = Atomic<Int>(0)
    private static let claimed = Mutex<[String: String]>([:])

    /// A fresh path in this process's folder of `directory` (claimed on first use).
    public static func uniquePath(in directory: String, suffix: String) -> String {
        let number = counter.add(1, ordering: .relaxed).newValue
        return "\(processFolder(in: directory))/\(number)-\(suffix)"
    }

    /// Creates `directory` when needed, removes the folders of processes that are gone (uploads or
    /// derivatives cut off by a crash or SIGKILL) and claims this process's folder. Returns how many
    /// folders were removed.
    @discardableResult
    public static func removeFilesOfDeadProcesses(in directory: String) -> Int {
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let removed = removeAbandonedFolders(in: directory)
        _ = processFolder(in: directory)
        return removed
    }

    /// This process's folder in `directory`: made and locked under a hidden name, then renamed, so
    /// no other process ever sees it unlocked. Falls back to `directory` itself if it cannot be made.
    private static func processFolder(in directory: String) -> String {
        claimed.withLock { folders in
            if let folder = folders[directory] { return folder }
            let name = UUID().uuidString
            let hidden = directory + "/." + name
            let folder = directory + "/" + name
            try? FileManager.default.createDirectory(atPath: hidden, withIntermediateDirectories: true)
            let lock = open(hidden + "/.lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
            guard lock >= 0, flock(lock, LOCK_EX | LOCK_NB) == 0, rename(hidden, folder) == 0 else {
                if lock >= 0 { close(lock) }
                try? FileManager.default.removeItem(atPath: hidden)
                folders[directory] = directory
                return directory
            }
            // The descriptor stays open, and the lock held, until the process ends.
            folders[directory] = folder
            return folder
        }
    }

    /// Removes the folders in `directory` whose lock is free, and loose files of the earlier
    /// layout (`<pid>-<n>-<suffix>`) whose process is gone.
    private static func removeAbandonedFolders(in directory: String) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return 0 }
        var removed = 0
        for name in names where !name.hasPrefix(".") {
            let path = directory + "/" + name
            let lock = open(path + "/.lock", O_RDWR | O_CLOEXEC)
            if lock >= 0 {
                if flock(lock, LOCK_EX | LOCK_NB) == 0, (try? FileManager.default.removeItem(atPath: path)) != nil { removed += 1 }
                close(lock)
            } else if let pid = name.split(separator: "-", maxSplits: 1).first.flatMap({ Int32($0) }),
                pid != getpid(), kill(pid, 0) != 0, errno == ESRCH, unlink(path) == 0
            {
                removed += 1
            }
        }
        return removed
    }
}
