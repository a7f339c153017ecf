#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LivePairFormats

/// Cleans up after packaging runs that died: every packaging operation calls `recover` on the
/// folders it reads from and writes to before it starts.
///
/// A staging folder whose `lock` this process can take belongs to a dead run (a live run holds its
/// lock until it has removed the folder). With a commit journal, the dead run was between the
/// renames of a validated set of outputs: the renames are completed (`CommitJournal`). Without
/// one, the folder holds only unfinished outputs and scratch files, which are removed. A folder
/// another run holds is never touched.
public enum StagingRecovery {
    /// What one recovery pass did.
    public struct Outcome: Equatable, Sendable {
        /// Commits finished from a journal (each a set of renames).
        public var completedCommits = 0
        /// Staging folders of dead runs removed.
        public var removedFolders = 0
        /// Destinations a journal could not replace because they changed since the commit began:
        /// their staging folders are left as they are (nothing is overwritten on a guess).
        public var conflicts: [String] = []
    }

    /// Recovers the staging folders of dead runs in each of `directories`.
    @discardableResult
    public static func recover(directories: [String]) -> Outcome {
        var outcome = Outcome()
        var seen = Set<String>()
        for directory in directories where seen.insert(directory).inserted {
            recover(directory: directory, into: &outcome)
        }
        return outcome
    }

    private static func recover(directory: String, into outcome: inout Outcome) {
        for name in StagingFolder.entries(of: directory) {
            let folder = "\(directory)/\(name)"
            if name.hasPrefix(StagingFolder.prefix) {
                guard let lock = LockedFolder(folder) else { continue }
                if let journal = CommitJournal.read(from: folder) {
                    complete(journal, holding: lock, into: &outcome)
                } else {
                    remove(folder)
                    outcome.removedFolders += 1
                }
            } else if name.hasPrefix(StagingFolder.creatingPrefix) {
                if let lock = LockedFolder(folder) {
                    _ = lock
                    remove(folder)
                    outcome.removedFolders += 1
                } else if isOlderThanAMinute(folder), StagingFolder.entries(of: folder).isEmpty {
                    StagingFolder.removeDirectory(folder)
                }
            }
        }
    }

    /// Finishes the renames `journal` lists, then removes its staging folders.
    private static func complete(_ journal: CommitJournal, holding first: LockedFolder, into outcome: inout Outcome) {
        let folders = Set(journal.entries.map { StagedOutputs.directory(of: $0.temporary) })
        var locks = [first]
        for folder in folders where folder != first.path {
            guard FileSystemPath.linkStatus(folder) != nil else { continue }
            guard let lock = LockedFolder(folder) else { return }   // another run is on it
            locks.append(lock)
        }
        for entry in journal.entries where StagedOutputs.exists(entry.temporary) {
            guard CommitJournal.identity(of: entry.destination) == entry.original else {
                outcome.conflicts.append(entry.destination)
                return
            }
        }
        for entry in journal.entries where StagedOutputs.exists(entry.temporary) {
            guard FileSystemPath.rename(entry.temporary, entry.destination) == 0 else {
                outcome.conflicts.append(entry.destination)
                return
            }
        }
        for directory in Set(journal.entries.map { StagedOutputs.directory(of: $0.destination) }) {
            StagingFolder.syncDirectory(directory)
        }
        for lock in locks { remove(lock.path) }
        outcome.completedCommits += 1
        outcome.removedFolders += locks.count
    }

    /// Removes a staging folder: the journal first (a torn removal never leaves a journal without
    /// its lock), then the other files, the lock last.
    static func remove(_ folder: String) {
        FileSystemPath.unlink("\(folder)/\(CommitJournal.fileName)")
        LockedScratchFolder.removeFolder(folder, lockName: StagingFolder.lockName)
    }

    private static func isOlderThanAMinute(_ path: String) -> Bool {
        var status = stat()
        guard lstat(path, &status) == 0 else { return false }
        return time(nil) - status.st_mtim.tv_sec > 60
    }

    /// A staging folder whose lock this process holds (released on deinit); nil when another
    /// process holds it or the folder has no lock file.
    private final class LockedFolder {
        let path: String
        /// The held lock; nil for an old folder from a version without locks.
        private let folder: LockedScratchFolder?

        init?(_ path: String) {
            switch LockedScratchFolder.claimAbandoned(path, lockName: StagingFolder.lockName) {
            case let .claimed(folder):
                self.folder = folder
            case .held:
                return nil
            case let .noLock(code):
                // A folder from a version without locks, or one being removed right now.
                guard code == ENOENT, !CommitJournal.exists(in: path), StagingRecovery.isOlderThanAMinute(path) else {
                    return nil
                }
                self.folder = nil
            }
            self.path = path
        }
    }
}
