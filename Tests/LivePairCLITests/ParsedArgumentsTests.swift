import LivePairCLI
import Testing

@Suite("Argument parsing")
struct ParsedArgumentsTests {
    @Test("flags, options in both spellings, positionals and --")
    func forms() throws {
        let parsed = try ParsedArguments(
            ["--json", "a", "--severity", "error", "--level=2", "--", "--not-an-option"],
            flags: ["json"], options: ["severity", "level"])
        #expect(parsed.has("json"))
        #expect(parsed.options == ["severity": "error", "level": "2"])
        #expect(parsed.positionals == ["a", "--not-an-option"])
    }

    @Test("unknown options, missing values and values on flags are usage errors")
    func errors() {
        #expect(throws: UsageError("Unknown option '--nope'.")) {
            try ParsedArguments(["--nope"], flags: [], options: [])
        }
        #expect(throws: UsageError("Missing value for '--severity <value>'.")) {
            try ParsedArguments(["--severity"], flags: [], options: ["severity"])
        }
        #expect(throws: UsageError("The flag '--json' does not take a value.")) {
            try ParsedArguments(["--json=yes"], flags: ["json"], options: [])
        }
        #expect(throws: UsageError("Unknown option '-x'.")) {
            try ParsedArguments(["-x"], flags: [], options: [])
        }
    }
}
