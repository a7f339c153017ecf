#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Points where a test can kill the process for real (`SIGKILL`, no cleanup), to check that what
/// a dead run leaves is recovered, or pause it (up to 60 s) to send it a real SIGINT or SIGTERM
/// mid-run. A point fires only when the environment variable `LIVEPAIR_KILL_AT` (or
/// `LIVEPAIR_PAUSE_AT`) names it; without them, `reached` does nothing.
enum PackagingKillPoint: String {
    /// In a commit of several files, after the first rename and before the second.
    case betweenCommitRenames = "between-commit-renames"
    /// After the outputs are staged, before they are validated and committed.
    case beforeCommit = "before-commit"

    /// Kills the process with `SIGKILL` when `LIVEPAIR_KILL_AT` is this point's name; sleeps 60 s
    /// when `LIVEPAIR_PAUSE_AT` is.
    static func reached(_ point: PackagingKillPoint) {
        if let value = getenv("LIVEPAIR_KILL_AT"), String(cString: value) == point.rawValue { kill(getpid(), SIGKILL) }
        if let value = getenv("LIVEPAIR_PAUSE_AT"), String(cString: value) == point.rawValue {
            // A signal handler interrupts sleep: sleep the rest, so the run stays paused.
            var remaining: UInt32 = 60
            while remaining > 0 { remaining = sleep(remaining) }
        }
    }
}
