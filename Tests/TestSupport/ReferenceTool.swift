import Foundation
import Testing

/// Runs the reference tools (exiftool, ffprobe) that tests use as independent oracles.
/// They are never used by the product.
public enum ReferenceTool {
    /// True when the executable exists at `/usr/bin/NAME`. When it does not, the calling test is
    /// failed (not skipped): `scripts/setup.sh`, which the README's test command runs first, always
    /// installs the oracles, so a missing one must not let a cross-check pass silently.
    public static func isInstalled(_ name: String) -> Bool {
        let present = FileManager.default.isExecutableFile(atPath: "/usr/bin/\(name)")
        if !present {
            Issue.record("\(name) is not installed: run scripts/setup.sh (tests use it as an independent oracle)")
        }
        return present
    }

    /// Runs `/usr/bin/NAME arguments...` and returns its standard output (standard error is discarded).
    public static func run(_ name: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/\(name)")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// ffprobe's `start_time` of every stream of `path`, in stream order (nil where it prints N/A).
    public static func ffprobeStreamStartTimes(_ path: String) throws -> [Double?] {
        let text = try run("ffprobe", ["-v", "error", "-show_entries", "stream=start_time", "-of", "csv=p=0", path])
        return text.split(separator: "\n").map { Double($0.trimmingCharacters(in: .whitespaces)) }
    }
}
