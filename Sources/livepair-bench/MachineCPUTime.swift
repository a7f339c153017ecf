import Foundation

/// The machine's CPU time from `/proc/stat`: how many CPU-seconds all processes used, busy and in
/// total, between two readings. Used where a benchmark must show that the machine's cores, not
/// the code under test, set the limit (a server sharing the cores with its clients).
struct MachineCPUTime {
    /// Busy CPU-seconds (user, nice, system, irq, softirq, steal) since boot, over all cores.
    let busy: Double
    /// Every CPU-second since boot, idle and I/O wait included, over all cores.
    let total: Double

    /// The current reading; zeros where `/proc/stat` cannot be read.
    static func now() -> MachineCPUTime {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") })
        else { return MachineCPUTime(busy: 0, total: 0) }
        // cpu user nice system idle iowait irq softirq steal guest guest_nice (clock ticks);
        // guest time is already counted in user.
        let ticks = line.split(separator: " ").dropFirst().prefix(8).map { Double($0) ?? 0 }
        guard ticks.count == 8 else { return MachineCPUTime(busy: 0, total: 0) }
        let hertz = Double(sysconf(Int32(_SC_CLK_TCK)))
        let idle = ticks[3] + ticks[4]
        let all = ticks.reduce(0, +)
        return MachineCPUTime(busy: (all - idle) / hertz, total: all / hertz)
    }

    /// The CPU-seconds between `earlier` and this reading.
    func since(_ earlier: MachineCPUTime) -> MachineCPUTime {
        MachineCPUTime(busy: busy - earlier.busy, total: total - earlier.total)
    }
}
