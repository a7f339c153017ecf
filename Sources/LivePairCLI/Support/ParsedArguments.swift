/// The command-line arguments of one command, split into flags, options with values, and
/// positional arguments, following the conventions of swift-argument-parser:
/// `--flag`, `--option value`, `--option=value`, `-h`, and `--` to end options.
public struct ParsedArguments: Sendable, Equatable {
    /// Flags that were given (for example `json`, `deep`), by long name.
    public private(set) var flags: Set<String> = []
    /// Options that were given with a value, by long name; the last occurrence wins.
    public private(set) var options: [String: String] = [:]
    /// Positional arguments in order.
    public private(set) var positionals: [String] = []

    /// Parses `arguments` against a command's declared `flags` and `options` (long names without
    /// dashes). `shortNames` maps single letters to long names (for example `h` to `help`).
    /// Throws `UsageError` for unknown options or a missing option value.
    public init(
        _ arguments: [String], flags knownFlags: Set<String>, options knownOptions: Set<String>,
        shortNames: [Character: String] = ["h": "help"]
    ) throws(UsageError) {
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name: String
            var inlineValue: String?
            if argument.hasPrefix("--") {
                name = String(argument.dropFirst(2))
                if let equals = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
            } else {
                let letters = Array(argument.dropFirst())
                guard letters.count == 1, let long = shortNames[letters[0]] else {
                    throw UsageError("Unknown option '\(argument)'.")
                }
                name = long
            }
            if knownFlags.contains(name) || name == "help" {
                guard inlineValue == nil else { throw UsageError("The flag '--\(name)' does not take a value.") }
                flags.insert(name)
            } else if knownOptions.contains(name) {
                if let inlineValue {
                    options[name] = inlineValue
                } else {
                    guard index < arguments.count else { throw UsageError("Missing value for '--\(name) <value>'.") }
                    options[name] = arguments[index]
                    index += 1
                }
            } else {
                throw UsageError("Unknown option '\(argument)'.")
            }
        }
    }

    /// True when `flag` was given.
    public func has(_ flag: String) -> Bool { flags.contains(flag) }
}

/// A mistake in how a command was called: reported with the usage line, exit status 64.
public struct UsageError: Error, Equatable, Sendable {
    /// What is wrong, as a sentence.
    public let message: String

    /// A usage error saying `message`.
    public init(_ message: String) { self.message = message }
}
