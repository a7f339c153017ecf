import Foundation

/// Where a test process keeps its scratch folders (libraries, copies of samples): one folder per
/// test process under the temporary directory, removed when the process exits. A folder left by
/// a test process that died is removed by the next one; whether its owner is gone is decided by a
/// lock the owner holds for its whole life (never by a process id, which another PID namespace
/// can reuse).
public enum TestScratch {
    /// The prefix of every test process's scratch folder.
    static let prefix = "livepair-tests-"

    /// This process's scratch folder, created (and its dead predecessors removed) on first use.
    public static let root: String = {
        let base = FileManager.default.temporaryDirectory.path
        removeAbandonedFolders(in: base)
        let name = prefix + UUID().uuidString
        let path = base + "/" + name
        // Made and locked under a name no other process sweeps, then renamed: never seen unlocked.
        let unnamed = base + "/." + name
        do {
            try FileManager.default.createDirectory(atPath: unnamed, withIntermediateDirectories: true)
        } catch {
            fatalError("cannot create the tests' scratch folder \(unnamed): \(error)")
        }
        let lock = open(unnamed + "/.lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard lock >= 0, flock(lock, LOCK_EX | LOCK_NB) == 0, rename(unnamed, path) == 0 else {
            fatalError("cannot lock the tests' scratch folder \(path): errno \(errno)")
        }
        // The descriptor stays open, and the lock held, until the process ends.
        atexit { try? FileManager.default.removeItem(atPath: TestScratch.root) }
        return path
    }()

    /// A new empty folder named after `label` inside this process's scratch folder.
    public static func folder(_ label: String) throws -> String {
        let path = root + "/" + label + "-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Removes the scratch folders in `base` whose lock nobody holds: their test process is gone.
    private static func removeAbandonedFolders(in base: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: base) else { return }
        for name in names where name.hasPrefix(prefix) {
            let folder = base + "/" + name
            let lock = open(folder + "/.lock", O_RDWR | O_CLOEXEC)
            guard lock >= 0 else { continue }
            defer { close(lock) }
            if flock(lock, LOCK_EX | LOCK_NB) == 0 { try? FileManager.default.removeItem(atPath: folder) }
        }
    }
}
