import Foundation
import LivePair

/// `livepair inspect [--json] PATH...`: what each file is.
public enum InspectCommand: Command {
    /// The subcommand name.
    public static let name = "inspect"
    /// One line saying what it does.
    public static let abstract = "Show what each file is: format, role, content identifier, still-image time, size, codecs, dates."
    /// The usage line.
    public static let usage = "livepair inspect [--json] <path> ..."
    /// The help text.
    public static let help = """
        OVERVIEW: \(abstract)

        Reads only headers and metadata (never whole movies). Directories are read recursively;
        hidden files are skipped. The format is decided by content, not by extension.

        USAGE: \(usage)

        ARGUMENTS:
          <path>                  Files or directories to inspect.

        OPTIONS:
          --json                  Print a JSON array, one object per file (schema: docs/cli.md).
          -h, --help              Show help information.

        EXIT STATUS:
          0 every file was read, 1 any file could not be read, 64 usage error.
        """

    /// Runs `inspect`.
    public static func run(_ arguments: [String], streams: OutputStreams) -> ExitCode {
        let parsed: ParsedArguments
        do {
            parsed = try ParsedArguments(arguments, flags: ["json"], options: [])
        } catch {
            return usageFailure(error, streams: streams)
        }
        if parsed.has("help") {
            streams.print(help)
            return .success
        }
        guard !parsed.positionals.isEmpty else {
            return usageFailure(UsageError("Missing expected argument '<path> ...'."), streams: streams)
        }
        let collection = FileCollector.collect(parsed.positionals)
        for path in collection.missing {
            streams.printError("Error: \(path): no such file or directory")
        }
        let identities = identifyAll(collection.files, streams: streams)
        if parsed.has("json") {
            streams.print(JSONValue.array(identities.map(InspectReport.json)).rendered())
        } else {
            streams.print(InspectReport.table(identities), terminator: "")
        }
        let failed = !collection.missing.isEmpty || identities.contains { !$0.isComplete }
        return failed ? .failure : .success
    }

    /// Identifies `files` on every core, returning results in the order of `files`.
    static func identifyAll(_ files: [String], streams: OutputStreams) -> [ResourceIdentity] {
        let progress = ProgressReporter(streams: streams, label: "Inspecting", total: files.count)
        let results = ResultSlots<ResourceIdentity>(count: files.count)
        let identifier = ResourceIdentifier()
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            results.store(identifier.identify(path: files[index]), at: index)
            progress.advance()
        }
        progress.finish()
        return results.values
    }
}

/// Fixed slots that concurrent workers fill, each slot written once.
final class ResultSlots<Value: Sendable>: @unchecked Sendable {
    // Sendable: every access to `slots` holds `lock`.
    private let lock = NSLock()
    private var slots: [Value?]

    /// `count` empty slots.
    init(count: Int) { slots = Array(repeating: nil, count: count) }

    /// Stores `value` in slot `index`.
    func store(_ value: Value, at index: Int) { lock.withLock { slots[index] = value } }

    /// The filled values in slot order.
    var values: [Value] { lock.withLock { slots.compactMap { $0 } } }
}
