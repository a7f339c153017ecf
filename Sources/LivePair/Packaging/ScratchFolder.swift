/// A hidden folder for intermediate files next to a command's outputs, owned by this run: a
/// staging folder (`.livepair-staging-<random>/`, locked with `flock`) that holds no commit journal.
/// It is removed by `remove()` (or when the value is released), by `ActiveStaging.removeAll()`
/// when the process is interrupted, and, when the run died, by the next packaging run or
/// `StagingRecovery.recover` on its folder. `library export --for-photos` keeps the stored halves
/// there while it restamps them.
public final class ScratchFolder {
    private let folder: StagingFolder
    private var removed = false

    /// The folder's path.
    public var path: String { folder.path }

    /// Creates and locks a scratch folder in `directory` (which must exist).
    public init(in directory: String) throws(PackagingError) {
        folder = try StagingFolder.create(in: directory)
    }

    deinit { remove() }

    /// Removes the folder and everything in it.
    public func remove() {
        guard !removed else { return }
        removed = true
        folder.remove()
    }
}
