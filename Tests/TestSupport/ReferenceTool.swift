import Foundation
import Synchronization
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

    /// A reference tool that is not installed. A test that needs one fails with this reason rather
    /// than being skipped: a missing oracle means a broken machine, not a passing check.
    public struct NotInstalled: Error, CustomStringConvertible {
        /// The tool's name.
        public var name: String
        /// The error for the tool `name`.
        public init(name: String) { self.name = name }
        /// The reason, as the failing test shows it.
        public var description: String {
            "/usr/bin/\(name) is not installed: run scripts/setup.sh (tests use it as an independent oracle)"
        }
    }

    /// Runs `/usr/bin/NAME arguments...` and returns its standard output (standard error is
    /// discarded) and its exit status. Throws `NotInstalled` when the tool is missing. This is the
    /// one runner of reference tools in the tests.
    ///
    /// Run through `ChildProcess`: standard output goes through a temporary file, not a pipe
    /// (Foundation's pipe reading on Linux traps on EINTR when several tests run child processes
    /// at once). exiftool is asked through this process's one `ExifToolSession` instead (one
    /// start for every question; its status is then given as 0) unless an argument cannot go
    /// through its socket or `LIVEPAIR_TOOL_TIMES` asks for each run's times.
    public static func execute(_ name: String, _ arguments: [String]) throws -> (output: Data, status: Int32) {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/\(name)") else { throw NotInstalled(name: name) }
        let tool = "/usr/bin/\(name)"
        let timesLog = ProcessInfo.processInfo.environment["LIVEPAIR_TOOL_TIMES"]
        if name == "exiftool" && timesLog == nil && ExifToolSession.canCarry(arguments) {
            return (try ExifToolSession.shared.run(arguments), 0)
        }
        let sampleKey = timesLog == nil && name == "ffprobe" ? sampleMediaKey(arguments) : nil
        if let sampleKey, let known = sampleProbes.withLock({ $0[sampleKey] }) { return known }
        let run: ChildProcess.Result
        if let log = timesLog {
            run = try ChildProcess.run(
                "/usr/bin/time", ["-a", "-o", log, "-f", "%U %S \(name) \(arguments.joined(separator: " "))", tool] + arguments,
                standardError: .discarded)
        } else {
            run = try ChildProcess.run(tool, arguments, standardError: .discarded)
        }
        if let sampleKey { sampleProbes.withLock { $0[sampleKey] = (run.output, run.status) } }
        return (run.output, run.status)
    }

    /// ffprobe's answers about files of `SampleMedia/` (inputs no test writes), kept for this test
    /// process: many tests probe the same sample (its frame count, its streams' times), and each
    /// ffprobe run spends about 0.1 s of CPU only loading FFmpeg's libraries.
    private static let sampleProbes = Mutex<[String: (output: Data, status: Int32)]>([:])

    /// The cache key of an ffprobe run over `arguments`: the arguments with each named sample's
    /// size and modification time, or nil when an argument names a file outside `SampleMedia/`.
    private static func sampleMediaKey(_ arguments: [String]) -> String? {
        let root = SampleMedia.root.path + "/"
        var key = arguments.joined(separator: "\u{0}")
        var namesSample = false
        for argument in arguments where argument.contains("/") {
            guard argument.hasPrefix(root), let attributes = try? FileManager.default.attributesOfItem(atPath: argument),
                let size = attributes[.size] as? Int, let modified = attributes[.modificationDate] as? Date
            else { return nil }
            key += "\u{0}\(size)\u{0}\(modified.timeIntervalSince1970)"
            namesSample = true
        }
        return namesSample ? key : nil
    }

    /// Runs `/usr/bin/NAME arguments...` and returns its standard output as text, whatever its exit
    /// status (exiftool exits 1 on a warning).
    public static func run(_ name: String, _ arguments: [String]) throws -> String {
        String(decoding: try execute(name, arguments).output, as: UTF8.self)
    }

    /// A reference tool that exited with a nonzero status.
    public struct Failed: Error, CustomStringConvertible {
        /// The command line and its status.
        public var description: String
    }

    /// Runs ffmpeg or ffprobe quietly (`-hide_banner -v error` before `arguments`) and returns its
    /// standard output; a nonzero exit status throws `Failed`.
    @discardableResult
    public static func ffmpegTool(_ name: String, _ arguments: [String]) throws -> Data {
        let (output, status) = try execute(name, ["-hide_banner", "-v", "error"] + arguments)
        guard status == 0 else {
            throw Failed(description: "\(name) \(arguments.joined(separator: " ")) exited \(status)")
        }
        return output
    }

    /// ffprobe's `start_time` of every stream of `path`, in stream order (nil where it prints N/A).
    public static func ffprobeStreamStartTimes(_ path: String) throws -> [Double?] {
        let text = try run("ffprobe", ["-v", "error", "-show_entries", "stream=start_time", "-of", "csv=p=0", path])
        return text.split(separator: "\n").map { Double($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// ffprobe's streams of `path` as dictionaries (`-count_frames` fills `nb_read_frames`, by
    /// decoding every frame).
    public static func ffprobeStreams(_ path: String, countFrames: Bool = false) throws -> [[String: Any]] {
        var arguments = ["-v", "error", "-show_streams", "-of", "json"]
        if countFrames { arguments.insert("-count_frames", at: 0) }
        let text = try run("ffprobe", arguments + [path])
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        return object?["streams"] as? [[String: Any]] ?? []
    }

    /// The MD5 of the first video stream's packets (`ffmpeg -map 0:v:0 -c copy -f md5`): equal when
    /// the coded video is byte-identical, whatever the container around it.
    public static func videoPacketMD5(_ path: String) throws -> String {
        try run("ffmpeg", ["-v", "error", "-i", path, "-map", "0:v:0", "-c", "copy", "-f", "md5", "-"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
