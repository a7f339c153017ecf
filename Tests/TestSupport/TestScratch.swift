import Foundation
import LivePairFormats

/// Where a test process keeps its scratch folders (libraries, copies of samples): one folder per
/// test process under the temporary directory (a `LockedScratchFolder`), removed when the process
/// exits. A folder left by a test process that died is removed by the next one; whether its owner
/// is gone is decided by the lock the owner holds for its whole life (never by a process id, which
/// another PID namespace can reuse).
public enum TestScratch {
    /// The prefix of every test process's scratch folder.
    static let prefix = "livepair-tests-"

    /// This process's locked scratch folder, created (and its dead predecessors removed) on first use.
    private static let held: LockedScratchFolder = {
        let base = FileManager.default.temporaryDirectory.path
        LockedScratchFolder.removeAbandoned(in: base) { $0.hasPrefix(prefix) }
        do {
            // Made and locked under a name no sweep takes (`.livepair-tests-…`), then renamed.
            let folder = try LockedScratchFolder.create(
                in: base, prefix: prefix, provisionalPrefix: "." + prefix, permissions: 0o755)
            atexit { TestScratch.held.remove() }
            return folder
        } catch {
            fatalError("cannot create and lock the tests' scratch folder in \(base): \(error)")
        }
    }()

    /// This process's scratch folder.
    public static var root: String { held.path }

    /// A new empty folder named after `label` inside this process's scratch folder.
    public static func folder(_ label: String) throws -> String {
        let path = root + "/" + label + "-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
