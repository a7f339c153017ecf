import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Peak resident memory, from `getrusage`.
enum ResourceUsage {
    /// Peak resident set size of this process, in bytes.
    static var selfPeakBytes: UInt64 { peak(RUSAGE_SELF.rawValue) }
    /// Largest peak resident set size among waited-for child processes, in bytes.
    static var childrenPeakBytes: UInt64 { peak(RUSAGE_CHILDREN.rawValue) }

    private static func peak(_ who: Int32) -> UInt64 {
        var usage = rusage()
        getrusage(who, &usage)
        return UInt64(usage.ru_maxrss) * 1024  // kilobytes on Linux
    }

    /// Resident memory of this process now, in bytes (from /proc/self/statm), or 0 where unavailable.
    static var currentResidentBytes: UInt64 {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = UInt64(fields[1]) else { return 0 }
        return pages * UInt64(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Seconds elapsed while running `body`.
    static func time(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// `bytes` in MiB with one decimal.
    static func mebibytes(_ bytes: UInt64) -> String { String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
}
