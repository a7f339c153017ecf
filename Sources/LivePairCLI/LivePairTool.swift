/// The `livepair` command: dispatches to subcommands and prints help and version.
public enum LivePairTool {
    /// The version printed by `--version`, `-V` and `livepair version`.
    public static let version = "0.1.0"

    /// Every subcommand, in help order.
    static let commands: [any Command.Type] = [
        InspectCommand.self, PairCommand.self, ValidateCommand.self, PreviewCommand.self, MakeCommand.self,
        RestampCommand.self, ConvertCommand.self, LibraryCommand.self, ImportCommand.self, CompletionCommand.self,
    ]

    /// The commands that are not subcommand types, with their abstracts, listed after the others.
    static let builtins: [(name: String, abstract: String)] = [
        ("help", "Show help for livepair or for one subcommand."),
        ("version", "Show the version."),
    ]

    /// Every name the top level accepts, in help order (used by shell completion too).
    static var commandNames: [String] { commands.map { $0.name } + builtins.map(\.name) }

    /// The top-level help text.
    static var help: String {
        let entries = commands.map { ($0.name, $0.abstract) } + builtins.map { ($0.name, $0.abstract) }
        let width = entries.map { $0.0.count }.max() ?? 0
        let list = entries.map { name, abstract in
            "  " + name + String(repeating: " ", count: width - name.count + 4) + abstract
        }.joined(separator: "\n")
        return """
            OVERVIEW: Inspect, validate, pair, make and import Apple Live Photos and Android motion photos.

            USAGE: livepair <subcommand> [options]

            OPTIONS:
              -V, --version           Show the version.
              -h, --help              Show help information.

            SUBCOMMANDS:
            \(list)

              See 'livepair help <subcommand>' for detailed help.
            """
    }

    /// Runs `livepair` with `arguments` (without the program name) and returns the exit status.
    public static func main(_ arguments: [String], streams: OutputStreams) -> ExitCode {
        guard let first = arguments.first else {
            streams.printError(HelpText.wrapped(help))
            return .usage
        }
        switch first {
        case "-h", "--help":
            streams.print(HelpText.wrapped(help))
            return .success
        case "-V", "--version", "version":
            streams.print(version)
            return .success
        case "help":
            guard arguments.count > 1, arguments[1] != "help" else {
                streams.print(HelpText.wrapped(help))
                return .success
            }
            if arguments[1] == "version" {
                streams.print("OVERVIEW: Show the version.\n\nUSAGE: livepair version")
                return .success
            }
            guard let command = commands.first(where: { $0.name == arguments[1] }) else {
                return unknownSubcommand(arguments[1], streams: streams)
            }
            streams.print(HelpText.wrapped(command.help))
            return .success
        default:
            guard let command = commands.first(where: { $0.name == first }) else {
                return first.hasPrefix("-")
                    ? usageFailure("Unknown option '\(first)'.", streams: streams)
                    : unknownSubcommand(first, streams: streams)
            }
            return command.run(Array(arguments.dropFirst()), streams: streams)
        }
    }

    private static func unknownSubcommand(_ name: String, streams: OutputStreams) -> ExitCode {
        usageFailure("Unknown subcommand '\(name)'.", streams: streams)
    }

    private static func usageFailure(_ message: String, streams: OutputStreams) -> ExitCode {
        streams.printError("Error: " + TerminalText.escaped(message))
        streams.printError("Usage: livepair <subcommand> [options]")
        streams.printError("  See 'livepair --help' for more information.")
        return .usage
    }
}
