import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs an executable as its own process (`posix_spawn`, output to a file or /dev/null) and
/// times it from spawn to exit: what a script that calls the CLI waits for.
enum ProcessTimer {
    /// Errors starting a process.
    struct SpawnFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `path arguments...` once; returns the wall time and the CPU time (user + system, all
    /// threads) in seconds, the exit status and the process's peak resident set size in bytes
    /// (with what it `exec`s into). Standard output goes to `output` (a file, truncated) or
    /// /dev/null; standard error to /dev/null.
    static func run(
        _ path: String, _ arguments: [String], output: String = "/dev/null"
    ) throws -> (seconds: Double, cpu: Double, status: Int32, peakBytes: UInt64) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let start = DispatchTime.now().uptimeNanoseconds
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard spawned == 0 else { throw SpawnFailure(description: "\(path): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        // WIFEXITED / WEXITSTATUS are macros: the status is in bits 8-15 when the low 7 bits are 0.
        return (seconds, cpuSeconds(usage), status & 0x7F == 0 ? (status >> 8) & 0xFF : -1, UInt64(usage.ru_maxrss) * 1024)
    }

    /// User plus system time of `usage`, in seconds.
    static func cpuSeconds(_ usage: rusage) -> Double {
        Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// CPU time (user + system) of all waited-for children so far, in seconds.
    static var childrenCPUSeconds: Double {
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        return cpuSeconds(usage)
    }

    /// The median and the minimum of `count` runs, in seconds, and the last exit status.
    static func repeated(_ count: Int, _ path: String, _ arguments: [String]) throws -> (median: Double, minimum: Double, status: Int32) {
        var times: [Double] = []
        var status: Int32 = 0
        for _ in 0..<count {
            let run = try run(path, arguments)
            times.append(run.seconds)
            status = run.status
        }
        times.sort()
        return (times[times.count / 2], times[0], status)
    }

    /// The folder of the running executable (the build products folder for livepair-bench).
    static var executableDirectory: String {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().path
    }
}
