import Foundation

/// The baseline photo backends use today: one long-running exiftool process reading the
/// identifiers of a list of files (`exiftool -s3 -ContentIdentifier -MediaGroupUUID -@ list`).
enum ExiftoolBaseline {
    /// Runs exiftool over `files` (the argument file is written into `listDirectory`) and returns
    /// the wall time, exiftool's peak memory and how many identifiers it printed.
    static func readIdentifiers(_ files: [String], listDirectory: URL) throws -> (seconds: Double, peak: UInt64, identifiers: Int) {
        let listURL = listDirectory.appendingPathComponent("exiftool-args.txt")
        try files.joined(separator: "\n").write(to: listURL, atomically: true, encoding: .utf8)
        var identifiers = 0
        let seconds = try ResourceUsage.time {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/exiftool")
            process.arguments = ["-s3", "-ContentIdentifier", "-MediaGroupUUID", "-@", listURL.path]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            // With several files exiftool prints a `======== path` header per file and a closing count: skip them.
            identifiers = String(decoding: data, as: UTF8.self).split(separator: "\n").filter { line in
                !line.hasPrefix("========") && !line.hasSuffix("files read")
            }.count
        }
        return (seconds, ResourceUsage.childrenPeakBytes, identifiers)
    }
}
