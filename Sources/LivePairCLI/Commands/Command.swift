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

extension Command {
    /// Reports a usage error the swift-argument-parser way and returns exit status 64.
    static func usageFailure(_ error: UsageError, streams: OutputStreams) -> ExitCode {
        streams.printError("Error: \(error.message)")
        streams.printError("Usage: \(usage)")
        streams.printError("  See 'livepair \(name) --help' for more information.")
        return .usage
    }
}
