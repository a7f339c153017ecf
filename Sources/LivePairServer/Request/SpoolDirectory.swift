import Foundation
import Synchronization

/// Temporary files named `<pid>-<counter>-<suffix>`: unique within and across processes, and
/// removable after a crash (a file whose process is gone is left over).
public enum SpoolDirectory {
    private static let counter = Atomic<Int>(0)

    /// A fresh path in `directory`.
    public static func uniquePath(in directory: String, suffix: String) -> String {
        let number = counter.add(1, ordering: .relaxed).newValue
        return "\(directory)/\(getpid())-\(number)-\(suffix)"
    }

    /// Creates `directory` when needed and removes the files of processes that are gone (uploads
    /// or derivatives cut off by a crash or SIGKILL). Returns how many were removed.
    @discardableResult
    public static func removeFilesOfDeadProcesses(in directory: String) -> Int {
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return 0 }
        var removed = 0
        for name in names {
            guard let pid = name.split(separator: "-", maxSplits: 1).first.flatMap({ Int32($0) }) else { continue }
            if pid != getpid(), kill(pid, 0) != 0, errno == ESRCH, unlink(directory + "/" + name) == 0 { removed += 1 }
        }
        return removed
    }
}
