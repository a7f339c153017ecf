/// `livepair completion bash|zsh|fish`: prints a shell completion script.
public enum CompletionCommand: Command {
    /// The subcommand name.
    public static let name = "completion"
    /// One line saying what it does.
    public static let abstract = "Print a shell completion script for bash, zsh or fish."
    /// The usage line.
    public static let usage = "livepair completion bash|zsh|fish"
    /// The help text.
    public static let help = """
        OVERVIEW: \(abstract)

        The script completes subcommands, their options and file names. Install it with, for bash,
        'livepair completion bash > /etc/bash_completion.d/livepair' (or source it from ~/.bashrc);
        for zsh, save 'livepair completion zsh' as _livepair in a folder of $fpath; for fish,
        'livepair completion fish > ~/.config/fish/completions/livepair.fish'.

        USAGE: \(usage)

        ARGUMENTS:
          bash|zsh|fish           The shell to write the script for.

        OPTIONS:
          -h, --help              Show help information.

        EXIT STATUS:
          0 printed, 64 usage error.
        """

    /// Runs `completion` with the options of the commands in this process.
    public static func run(_ arguments: [String], streams: OutputStreams) -> ExitCode {
        run(arguments, streams: streams, media: .unavailable)
    }

    /// Runs `completion`; the media commands' options are listed when `media` runs them in process.
    static func run(_ arguments: [String], streams: OutputStreams, media: MediaCommands) -> ExitCode {
        var available: [any Command.Type] = []
        if case let .inProcess(commands, _, _) = media { available = commands }
        let parsed: ParsedArguments
        do {
            parsed = try ParsedArguments(arguments, flags: [], options: [])
        } catch {
            return usageFailure(error, streams: streams)
        }
        if parsed.has("help") {
            streams.print(HelpText.wrapped(help))
            return .success
        }
        guard parsed.positionals.count == 1 else {
            let message = parsed.positionals.isEmpty ? "Missing expected argument 'bash|zsh|fish'." : "Too many arguments."
            return usageFailure(UsageError(message), streams: streams)
        }
        switch parsed.positionals[0] {
        case "bash": streams.print(CompletionScripts.bash(available), terminator: "")
        case "zsh": streams.print(CompletionScripts.zsh(available), terminator: "")
        case "fish": streams.print(CompletionScripts.fish(available), terminator: "")
        case let other:
            return usageFailure(UsageError("The value '\(other)' is invalid for 'bash|zsh|fish'."), streams: streams)
        }
        return .success
    }
}
