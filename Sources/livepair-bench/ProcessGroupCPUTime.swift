import Foundation

/// The CPU time of a process group from `/proc`: what a server started by the project's scripts
/// (SeaweedFS runs in a process group of its own, `SEAWEEDFS_PGID`) has used so far.
enum ProcessGroupCPUTime {
    /// User plus system CPU-seconds of the live processes whose process group is `group`
    /// (threads included; children that already exited are not counted).
    static func seconds(group: Int32) -> Double {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return 0 }
        let hertz = Double(sysconf(Int32(_SC_CLK_TCK)))
        var ticks = 0.0
        for entry in entries where entry.first?.isNumber == true {
            guard let text = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = text.lastIndex(of: ")")
            else { continue }
            // After "pid (comm)": state ppid pgrp session tty tpgid flags minflt cminflt majflt
            // cmajflt utime stime ...
            let fields = text[text.index(after: close)...].split(separator: " ")
            guard fields.count > 12, Int32(fields[2]) == group else { continue }
            ticks += (Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)
        }
        return ticks / hertz
    }
}
