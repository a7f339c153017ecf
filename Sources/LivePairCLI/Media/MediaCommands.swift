public import LivePairCore

/// Where the media commands (`MediaCommandCatalog`), deep validation and the archive reader
/// (`pair` on zip and tgz parts) run.
///
/// `livepair` links no C library, so that inspect, pair and validate start as fast as a program
/// that only imports Foundation; for the other commands it replaces itself (`execv`) with
/// `livepair-media`, found next to itself, which runs the same `LivePairTool` with everything in process.
public enum MediaCommands: Sendable {
    /// Not available: a media command reports an error (in-process callers such as tests).
    case unavailable
    /// In this process: the media commands, the deep validation for given options, and the
    /// reader of archive parts.
    case inProcess(
        commands: [any Command.Type], deepValidation: @Sendable (ValidationOptions) -> any DeepValidation,
        archives: any ExportArchiveStreaming)
    /// The executable at `path`, which replaces this process with the same arguments.
    case executable(path: String)

    /// `livepair-media` in the directory of the running executable.
    public static func besideThisExecutable() -> MediaCommands {
        guard let path = MediaExecutable.runningExecutablePath() else { return .unavailable }
        let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return .executable(path: directory + "/" + MediaExecutable.name)
    }

    /// The media command called `name`, when it runs in this process.
    func command(named name: String) -> (any Command.Type)? {
        guard case let .inProcess(commands, _, _) = self else { return nil }
        return commands.first { $0.name == name }
    }

    /// Runs `livepair arguments...` where the media commands are: in `livepair-media` (this process
    /// is replaced; returns only when that fails), or reports that they are not available here.
    func handOver(_ arguments: [String], streams: OutputStreams) -> ExitCode {
        switch self {
        case let .executable(path):
            let reason = MediaExecutable.replaceProcess(with: path, arguments: arguments)
            streams.printError("Error: '\(arguments.first ?? "")' runs in \(path), which could not be started: \(reason).")
            let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            streams.printError("Build it next to livepair: " + MediaExecutable.buildCommand(forDirectory: directory))
        case .unavailable, .inProcess:
            streams.printError(
                "Error: '\(arguments.first ?? "")' needs the media libraries, which this process does not link; "
                    + "run it with \(MediaExecutable.name).")
        }
        return .failure
    }
}
