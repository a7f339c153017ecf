/// One `livepair` subcommand.
public protocol Command: Sendable {
    /// The subcommand name, for example `inspect`.
    static var name: String { get }
    /// One line saying what it does.
    static var abstract: String { get }
    /// The full help text (OVERVIEW, USAGE, ARGUMENTS, OPTIONS).
    static var help: String { get }
    /// The usage line shown with usage errors.
    static var usage: String { get }
    /// Runs the command with its arguments (after the subcommand name).
    static func run(_ arguments: [String], streams: OutputStreams) -> ExitCode
}

/// What to do after parsing a command's arguments.
package enum ParseOutcome {
    /// Run the command with these arguments.
    case run(ParsedArguments)
    /// Stop with this exit code (help was shown, or a usage error reported).
    case exit(ExitCode)
}

extension Command {
    /// Parses `arguments` for a command that takes `<path> ...`: shows help for `--help`, reports
    /// unknown options and a missing path as usage errors.
    package static func parsePaths(
        _ arguments: [String], flags: Set<String>, options: Set<String> = [], streams: OutputStreams
    ) -> ParseOutcome {
        let parsed: ParsedArguments
        do {
            parsed = try ParsedArguments(arguments, flags: flags, options: options)
        } catch {
            return .exit(usageFailure(error, streams: streams))
        }
        if parsed.has("help") {
            streams.print(HelpText.wrapped(help))
            return .exit(.success)
        }
        guard !parsed.positionals.isEmpty else {
            return .exit(usageFailure(UsageError("Missing expected argument '<path> ...'."), streams: streams))
        }
        return .run(parsed)
    }

    /// Reports a usage error the swift-argument-parser way and returns exit status 64.
    package static func usageFailure(_ error: UsageError, streams: OutputStreams) -> ExitCode {
        streams.printError("Error: \(TerminalText.escaped(error.message))")
        streams.printError(HelpText.wrapped("Usage: \(usage)"))
        streams.printError("  See 'livepair \(name) --help' for more information.")
        return .usage
    }
}
