import Foundation
import LivePairCLI
import TestSupport
import Testing

@Suite("Help, version, completion and messages")
struct HelpAndMessagesTests {
    private func run(_ arguments: [String]) -> (status: ExitCode, output: String, error: String) {
        let capture = CapturedOutput()
        let status = LivePairTool.main(arguments, streams: capture.streams())
        return (status, capture.output, capture.error)
    }

    private static let commands = [
        "inspect", "pair", "validate", "preview", "make", "restamp", "convert", "edit", "library", "import", "serve", "completion",
    ]

    @Test("every help text fits 80 columns and names no repository path", arguments: [""] + commands)
    func helpFits(command: String) throws {
        // Through the executable: the media commands' help is written by livepair-media.
        let arguments = command.isEmpty ? [["--help"], ["help"]] : [["help", command], [command, "--help"]]
        for argumentList in arguments {
            let result = try LivePairBinary.run(argumentList)
            #expect(result.status == 0)
            #expect(result.output.hasPrefix("OVERVIEW: "))
            for line in result.output.split(separator: "\n") {
                #expect(line.count <= 80, "\(command): \(line.count) columns: \(line)")
            }
            #expect(!result.output.contains("docs/"), "\(command) help points to a repository path")
        }
    }

    @Test("laying help out to 80 columns keeps every word in order")
    func helpKeepsWords() {
        let texts: [(String, String)] = [
            ("inspect", InspectCommand.help), ("pair", PairCommand.help), ("validate", ValidateCommand.help),
            ("completion", CompletionCommand.help),
        ]
        for (name, text) in texts {
            let shown = run(["help", name]).output
            #expect(shown.split(whereSeparator: \.isWhitespace) == text.split(whereSeparator: \.isWhitespace), "\(name)")
        }
    }

    @Test("the overview lists every command")
    func overviewListsEverything() {
        let help = run(["--help"]).output
        for name in Self.commands + ["help", "version"] {
            #expect(help.contains("\n  \(name)  "), "\(name) missing from the overview")
        }
    }

    @Test("--version, -V and version print the version; help help prints the overview")
    func versionAndHelpHelp() {
        for spelling in ["--version", "-V", "version"] {
            let result = run([spelling])
            #expect(result.status == .success)
            #expect(result.output == LivePairTool.version + "\n")
        }
        let help = run(["help", "help"])
        #expect(help.status == .success)
        #expect(help.output.hasPrefix("OVERVIEW: Inspect, validate, pair"))
    }

    @Test("unknown options and values are usage errors in one wording")
    func usageErrors() throws {
        let option = run(["inspect", "--nope", "x"])
        #expect(option.status == .usage)
        #expect(option.error.hasPrefix("Error: Unknown option '--nope'.\nUsage: livepair inspect"))
        let topLevel = run(["--nope"])
        #expect(topLevel.status == .usage)
        #expect(topLevel.error.hasPrefix("Error: Unknown option '--nope'.\n"))
        let level = run(["validate", "--severity", "loud", "x"])
        #expect(level.status == .usage)
        #expect(level.error.hasPrefix("Error: The value 'loud' is invalid for '--severity <level>'"))
        #expect(run(["validate", "--help"]).output.contains("--severity <level>"))
        // The usage line of a usage error is laid out to 80 columns too.
        let make = try LivePairBinary.run(["make", "--nope"])
        #expect(make.error.split(separator: "\n").allSatisfy { $0.count <= 80 }, "\(make.error)")
        #expect(make.error.contains("Usage: livepair make [--photo <still>] --video <movie> [--still-time <seconds>]\n"))
    }

    @Test("a missing file is named once in the error")
    func noDoubledPaths() throws {
        let make = try LivePairBinary.run(["make", "--photo", "/nonexistent/x.heic", "--video", "/nonexistent/x.mov", "--output", "/tmp"])
        #expect(make.status == 1)
        #expect(make.error == "Error: /nonexistent/x.heic: no such file or directory\n")
        let inspect = run(["inspect", "/nonexistent/x.mov"])
        #expect(inspect.status == .failure)
        #expect(inspect.error == "Error: /nonexistent/x.mov: no such file or directory\n")
    }

    @Test("counts are singular for one and plural otherwise")
    func plurals() {
        #expect(run(["inspect", SampleMedia.path("live/train.jpg")]).output.hasSuffix("\n1 file: 1 live-photo-still\n"))
        let pair = run(["pair", SampleMedia.path("live/IMG_3582.HEIC"), SampleMedia.path("live/IMG_3582.mov")]).output
        #expect(pair.hasSuffix("1 Live Photo (0 weak), 0 motion photos, 0 unpaired, 0 ambiguous, 0 duplicate groups\n"))
        let validate = run(["validate", SampleMedia.path("live/IMG_3582.HEIC"), SampleMedia.path("live/IMG_3582.mov")]).output
        #expect(validate.contains("1 asset (1 valid, 0 with warnings, 0 invalid), 0 other files; 0 errors, 0 warnings, "))
    }

    @Test("completion bash parses with bash -n and completes subcommands and options")
    func bashCompletion() throws {
        let folder = try temporaryFolder("completion")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try runShell(
            """
            "$LIVEPAIR" completion bash > c.bash && bash -n c.bash && source c.bash \
            && COMP_WORDS=(livepair "") COMP_CWORD=1 && _livepair && echo "${COMPREPLY[*]}" \
            && COMP_WORDS=(livepair validate --se) COMP_CWORD=2 && _livepair && echo "${COMPREPLY[*]}" \
            && COMP_WORDS=(livepair completion "") COMP_CWORD=2 && _livepair && echo "${COMPREPLY[*]}"
            """, in: folder)
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines.first == "inspect pair validate preview make restamp convert edit library import migrate serve completion help version --help --version")
        #expect(lines.dropFirst().first == "--severity")
        #expect(lines.last == "bash zsh fish --help")
    }

    @Test("completion zsh is loaded by zsh's compinit and its function completes subcommands, values and options")
    func zshCompletion() throws {
        let folder = try temporaryFolder("completion-zsh")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // compinit registers _livepair from $fpath by its #compdef line; zsh's own completion
        // helpers are replaced by ones that print what they were given.
        let result = try runShell(
            """
            mkdir functions && "$LIVEPAIR" completion zsh > functions/_livepair && HOME="$PWD" /usr/bin/zsh -f -c '
              fpath=("$PWD/functions" $fpath); autoload -U compinit; compinit -u -d "$PWD/zcompdump"
              print -r -- "$_comps[livepair]"; autoload +X _livepair || exit 1
              _describe() { print -r -- "${(@)${(P)2}%%:*}"; }; _values() { shift; print -r -- "$@"; }
              _arguments() { print -r -- "$@"; }
              words=(livepair ""); CURRENT=2; _livepair
              words=(livepair completion ""); CURRENT=3; _livepair
              words=(livepair validate --se); CURRENT=3; _livepair'
            """, in: folder)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.split(separator: "\n").map(String.init) == [
            "_livepair",
            "inspect pair validate preview make restamp convert edit library import migrate serve completion help version",
            "bash zsh fish",
            "--json --deep --severity:value:_files --quiet --layout:value:_files --help *:file:_files",
        ])
    }

    @Test("completion fish is loaded by fish and completes subcommands, values and options")
    func fishCompletion() throws {
        let folder = try temporaryFolder("completion-fish")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try runShell(
            """
            "$LIVEPAIR" completion fish > livepair.fish && HOME="$PWD" /usr/bin/fish -c '
              source livepair.fish
              complete -C "livepair " | string split -f1 \\t | string join " "
              complete -C "livepair completion " | string join " "
              complete -C "livepair validate --se"'
            """, in: folder)
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(result.output)")
        #expect(Set((lines.first ?? "").split(separator: " ").map(String.init)).isSuperset(of: Self.commands))
        #expect(lines.dropFirst().first == "bash fish zsh")
        #expect(lines.last == "--severity")
    }

    @Test("completion zsh and fish name every subcommand; a wrong shell is a usage error")
    func otherShells() throws {
        let zsh = run(["completion", "zsh"])
        #expect(zsh.status == .success)
        #expect(zsh.output.hasPrefix("#compdef livepair\n"))
        let fish = try LivePairBinary.run(["completion", "fish"])
        #expect(fish.status == 0)
        for name in Self.commands {
            #expect(zsh.output.contains("    '\(name):"))
            #expect(fish.output.contains("-n __fish_use_subcommand -a \(name) -d "))
        }
        #expect(fish.output.contains("-n '__fish_seen_subcommand_from make' -l output -r\n"))
        let wrong = run(["completion", "tcsh"])
        #expect(wrong.status == .usage)
        #expect(wrong.error.hasPrefix("Error: The value 'tcsh' is invalid for 'bash|zsh|fish'."))
    }
}
