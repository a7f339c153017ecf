import Foundation
import LivePairFormats
import Synchronization

/// Temporary files of a serve process: each process claims a folder of its own inside a spool
/// directory (`<spool>/<random>/`, a `LockedScratchFolder`) and holds a lock (`flock` on its `.lock` file) on it for its whole
/// life. A folder whose lock nobody holds belongs to a process that is gone (a crash or SIGKILL),
/// whatever host or PID namespace it ran in, and is removed by the next process that opens the
/// spool; a process ID is never used, since another namespace may reuse it.
public enum SpoolDirectory {
    private static let counter = Atomic<Int>(0)
    private static let claimed = Mutex<[String: LockedScratchFolder]>([:])

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

    /// This process's folder in `directory`: a `LockedScratchFolder` made and locked under a hidden
    /// name, then renamed, so no other process ever sees it unlocked. Falls back to `directory`
    /// itself if it cannot be made.
    private static func processFolder(in directory: String) -> String {
        claimed.withLock { folders in
            if let folder = folders[directory] { return folder.path }
            guard let folder = try? LockedScratchFolder.create(
                in: directory, prefix: "", provisionalPrefix: ".", permissions: 0o755) else {
                return directory
            }
            // Kept, and the lock held, until the process ends.
            folders[directory] = folder
            return folder.path
        }
    }

    /// Removes the folders in `directory` whose lock is free, and loose files of the earlier
    /// layout (`<pid>-<n>-<suffix>`) whose process is gone.
    private static func removeAbandonedFolders(in directory: String) -> Int {
        var removed = LockedScratchFolder.removeAbandoned(in: directory) { !$0.hasPrefix(".") }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return removed }
        for name in names where !name.hasPrefix(".") {
            let path = directory + "/" + name
            if let pid = name.split(separator: "-", maxSplits: 1).first.flatMap({ Int32($0) }),
                pid != getpid(), kill(pid, 0) != 0, errno == ESRCH, unlink(path) == 0
            {
                removed += 1
            }
        }
        return removed
    }
}
