import LivePairFormats
import Synchronization

/// The staging folders this process holds right now, so that an interrupted run (SIGINT, SIGTERM)
/// can remove them before it exits: `removeAll()` is what the command-line tool's signal handler
/// calls.
public final class ActiveStaging: Sendable {
    /// The process-wide registry.
    public static let shared = ActiveStaging()

    private let folders = Mutex<Set<String>>([])

    private init() {}

    func insert(_ folder: String) { folders.withLock { _ = $0.insert(folder) } }

    func remove(_ folder: String) { folders.withLock { _ = $0.remove(folder) } }

    /// Removes every staging folder of this process that holds no commit journal (a folder with a
    /// journal is left for `StagingRecovery`: its renames must complete). Called when the process is
    /// about to exit on a signal; packaging in progress fails afterwards. The folders stay
    /// registered, so a second call removes what the working thread created in between. Deeper
    /// paths go first: a staging folder made inside another (an export's restamp into its scratch
    /// folder) is gone before its parent is emptied.
    public func removeAll() {
        let current = folders.withLock { $0 }.sorted { $0.utf8.count > $1.utf8.count }
        for folder in current where !CommitJournal.exists(in: folder) {
            // With what folders it holds (`migrate`'s temporary library), never following a link.
            LockedScratchFolder.removeFolder(folder, lockName: StagingFolder.lockName)
        }
    }
}
