/// The `livepair` command: dispatches to subcommands and prints help and version.
public enum LivePairTool {
    /// The version printed by `--version`, `-V` and `livepair version`.
    public static let version = "0.1.0"

    /// The subcommands that need no media library, in help order; `MediaCommandCatalog` lists the others.
    static let commands: [any Command.Type] = [InspectCommand.self, PairCommand.self, ValidateCommand.self]

    /// The commands that are not media commands nor `commands`, with their abstracts, listed last.
    static let builtins: [(name: String, abstract: String)] = [
        (CompletionCommand.name, CompletionCommand.abstract),
        ("help", "Show help for livepair or for one subcommand."),
        ("version", "Show the version."),
    ]

    /// Every subcommand's name and abstract, in help order.
    static var entries: [(name: String, abstract: String)] {
        commands.map { ($0.name, $0.abstract) } + MediaCommandCatalog.entries + builtins
    }

    /// Every name the top level accepts, in help order (used by shell completion too).
    static var commandNames: [String] { entries.map(\.name) }

    /// The top-level help text.
    static var help: String {
        let width = entries.map { $0.name.count }.max() ?? 0
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
    /// `media` says where the media commands and `validate --deep` run (see `MediaCommands`).
    public static func main(_ arguments: [String], streams: OutputStreams, media: MediaCommands = .unavailable) -> ExitCode {
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
            if arguments[1] == CompletionCommand.name {
                streams.print(HelpText.wrapped(CompletionCommand.help))
                return .success
            }
            guard let command = commands.first(where: { $0.name == arguments[1] }) ?? media.command(named: arguments[1])
            else {
                guard MediaCommandCatalog.contains(arguments[1]) else { return unknownSubcommand(arguments[1], streams: streams) }
                return media.handOver(arguments, streams: streams)
            }
            streams.print(HelpText.wrapped(command.help))
            return .success
        case CompletionCommand.name:
            // The script lists every command's options, read from the help texts: where the media
            // commands are not in this process, `livepair-media` writes it.
            if case .executable = media { return media.handOver(arguments, streams: streams) }
            return CompletionCommand.run(Array(arguments.dropFirst()), streams: streams, media: media)
        default:
            if first == ValidateCommand.name {
                return ValidateCommand.run(Array(arguments.dropFirst()), streams: streams, media: media)
            }
            if first == PairCommand.name {
                return PairCommand.run(Array(arguments.dropFirst()), streams: streams, media: media)
            }
            guard let command = commands.first(where: { $0.name == first }) ?? media.command(named: first) else {
                if first.hasPrefix("-") { return usageFailure("Unknown option '\(first)'.", streams: streams) }
                guard MediaCommandCatalog.contains(first) else { return unknownSubcommand(first, streams: streams) }
                return media.handOver(arguments, streams: streams)
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
