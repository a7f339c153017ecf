#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Points where a test can kill the process for real (`SIGKILL`, no cleanup), to check that what
/// a dead run leaves is recovered. A point fires only when the environment variable
/// `LIVEPAIR_KILL_AT` names it; without it, `reached` does nothing.
enum PackagingKillPoint: String {
    /// In a commit of several files, after the first rename and before the second.
    case betweenCommitRenames = "between-commit-renames"
    /// After the outputs are staged, before they are validated and committed.
    case beforeCommit = "before-commit"

    /// Kills the process with `SIGKILL` when `LIVEPAIR_KILL_AT` is this point's name.
    static func reached(_ point: PackagingKillPoint) {
        guard let value = getenv("LIVEPAIR_KILL_AT"), String(cString: value) == point.rawValue else { return }
        kill(getpid(), SIGKILL)
    }
}
