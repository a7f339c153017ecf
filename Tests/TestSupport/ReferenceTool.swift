import Foundation

/// Runs the reference tools (exiftool, ffprobe) that tests use as independent oracles.
/// They are never used by the product.
public enum ReferenceTool {
    /// True when the executable exists at `/usr/bin/NAME`.
    public static func isInstalled(_ name: String) -> Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/\(name)")
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
