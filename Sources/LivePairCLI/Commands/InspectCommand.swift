import Foundation
import LivePairCore
import LivePairFormats

/// `livepair inspect [--json] PATH...`: what each file is.
public enum InspectCommand: Command {
    /// The subcommand name.
    public static let name = "inspect"
    /// One line saying what it does.
    public static let abstract = "Show what each file is: format, role, content identifier, still-image time, size, codecs, dates."
    /// The usage line.
    public static let usage = "livepair inspect [--json | --wide] <path> ..."
    /// The help text.
    public static let help = """
        OVERVIEW: \(abstract)

        Reads only headers and metadata (never whole movies). Directories are read recursively;
        hidden files are skipped. The format is decided by content, not by extension. The table
        fits 120 columns: the content identifier's first 8 characters, paths shortened in the
        middle; --wide shows every column whole.

        USAGE: \(usage)

        ARGUMENTS:
          <path>                  Files or directories to inspect.

        OPTIONS:
          --json                  Print a JSON array, one object per file (schema: see the documentation).
          --wide                  Show every column whole: the full content identifier, paths,
                                  still-image time, orientation, codecs, capture date with its offset.
          -h, --help              Show help information.

        EXIT STATUS:
          0 every file was read, 1 any file could not be read, 64 usage error,
          66 no photo or movie among the files.
        """

    /// Runs `inspect`.
    public static func run(_ arguments: [String], streams: OutputStreams) -> ExitCode {
        let parsed: ParsedArguments
        switch parsePaths(arguments, flags: ["json", "wide"], streams: streams) {
        case let .exit(code): return code
        case let .run(arguments): parsed = arguments
        }
        let (files, links, anyMissing) = FileIdentification.collect(parsed.positionals, streams: streams)
        let identities = FileIdentification.identifyAll(files, links: links, label: "Inspecting", streams: streams)
        if parsed.has("json") {
            streams.print(JSONElement.array(identities.map(InspectReport.json)))
        } else {
            var buffer = OutputBuffer(capacity: 256 * (identities.count + 2))
            InspectReport.writeTable(identities, wide: parsed.has("wide"), into: &buffer)
            streams.write(buffer.bytes)
        }
        let failed = anyMissing || identities.contains { !$0.isComplete }
        return failed ? .failure : FileIdentification.successOrNoMedia(identities, paths: parsed.positionals, streams: streams)
    }
}
