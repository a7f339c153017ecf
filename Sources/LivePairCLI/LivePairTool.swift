/// The `livepair` command: dispatches to subcommands and prints help and version.
public enum LivePairTool {
    /// The version printed by `--version`.
    public static let version = "0.1.0"

    /// The subcommands that need no media library, in help order; `MediaCommandCatalog` lists the others.
    static let commands: [any Command.Type] = [InspectCommand.self, PairCommand.self, ValidateCommand.self]

    /// The top-level help text.
    static var help: String {
        let entries = commands.map { ($0.name, $0.abstract) } + MediaCommandCatalog.entries.map { ($0.name, $0.abstract) }
        let width = entries.map { $0.0.count }.max() ?? 0
        let list = entries.map { name, abstract in
            "  " + name + String(repeating: " ", count: width - name.count + 4) + abstract
        }.joined(separator: "\n")
        return """
            OVERVIEW: Inspect, validate and pair Apple Live Photos and Android motion photos.

            USAGE: livepair <subcommand> [options]

            OPTIONS:
              --version               Show the version.
              -h, --help              Show help information.

            SUBCOMMANDS:
            \(list)

              See 'livepair help <subcommand>' for detailed help.
            """
    }

    /// Runs `livepair` with `arguments` (without the program name) and returns the exit status.
    /// `media` says where the media commands and `validate --deep` run (see `MediaCommands`).
    public static func main(_ arguments: [String], streams: OutputStreams, media: MediaCommands = .unavailable) -> ExitCode {
        guard let first = arguments.first else {
            streams.printError(help)
            return .usage
        }
        switch first {
        case "-h", "--help":
            streams.print(help)
            return .success
        case "--version":
            streams.print(version)
            return .success
        case "help":
            guard arguments.count > 1 else {
                streams.print(help)
                return .success
            }
            guard let command = commands.first(where: { $0.name == arguments[1] }) ?? media.command(named: arguments[1])
            else {
                guard MediaCommandCatalog.contains(arguments[1]) else { return unknownSubcommand(arguments[1], streams: streams) }
                return media.handOver(arguments, streams: streams)
            }
            streams.print(command.help)
            return .success
        default:
            if first == ValidateCommand.name {
                return ValidateCommand.run(Array(arguments.dropFirst()), streams: streams, media: media)
            }
            guard let command = commands.first(where: { $0.name == first }) ?? media.command(named: first) else {
                guard MediaCommandCatalog.contains(first) else { return unknownSubcommand(first, streams: streams) }
                return media.handOver(arguments, streams: streams)
            }
            return command.run(Array(arguments.dropFirst()), streams: streams)
        }
    }

    private static func unknownSubcommand(_ name: String, streams: OutputStreams) -> ExitCode {
        streams.printError("Error: Unknown subcommand '\(name)'.")
        streams.printError("Usage: livepair <subcommand> [options]")
        streams.printError("  See 'livepair --help' for more information.")
        return .usage
    }
}
