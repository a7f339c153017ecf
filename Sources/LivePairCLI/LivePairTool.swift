/// The `livepair` command: dispatches to subcommands and prints help and version.
public enum LivePairTool {
    /// The version printed by `--version`.
    public static let version = "0.1.0"

    /// Every subcommand, in help order.
    static let commands: [any Command.Type] = [
        InspectCommand.self, PairCommand.self, ValidateCommand.self, PreviewCommand.self, MakeCommand.self,
        RestampCommand.self, ConvertCommand.self, LibraryCommand.self, ImportCommand.self, ServeCommand.self,
    ]

    /// The top-level help text.
    static var help: String {
        let width = commands.map { $0.name.count }.max() ?? 0
        let list = commands.map { command in
            "  " + command.name + String(repeating: " ", count: width - command.name.count + 4) + command.abstract
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
    public static func main(_ arguments: [String], streams: OutputStreams) -> ExitCode {
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
            guard let command = commands.first(where: { $0.name == arguments[1] }) else {
                return unknownSubcommand(arguments[1], streams: streams)
            }
            streams.print(command.help)
            return .success
        default:
            guard let command = commands.first(where: { $0.name == first }) else {
                return unknownSubcommand(first, streams: streams)
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
