/// Shell completion scripts for `livepair`, built from the commands' help texts (the options listed
/// under OPTIONS), so that a new option is completed without editing the scripts.
enum CompletionScripts {
    /// One option of a subcommand.
    struct Option: Equatable {
        /// The long name with dashes, `--output`.
        var name: String
        /// The value's placeholder (`<dir>`, `fit|fill`), nil for a flag.
        var value: String?
    }

    /// The options the help of `command` lists (`-h, --help` included).
    static func options(of command: any Command.Type) -> [Option] {
        var options: [Option] = []
        var inOptions = false
        for line in command.help.split(separator: "\n") {
            if !line.hasPrefix(" ") {
                inOptions = line == "OPTIONS:"
                continue
            }
            guard inOptions else { continue }
            var words = line.split(separator: " ", omittingEmptySubsequences: false).drop { $0.isEmpty }
            if words.first?.hasPrefix("-") == true, words.first?.hasSuffix(",") == true { words = words.dropFirst() }
            guard let first = words.first, first.hasPrefix("--") else { continue }
            let rest = words.dropFirst()
            let value = rest.first.flatMap { $0.isEmpty ? nil : String($0) }
            options.append(Option(name: String(first), value: value))
        }
        return options
    }

    /// Every subcommand with its options: read from the help of the command types in `available`
    /// (a media command not in this process offers `--help` only).
    private static func table(_ available: [any Command.Type]) -> [(name: String, abstract: String, options: [Option])] {
        let types = LivePairTool.commands + available + [CompletionCommand.self]
        return LivePairTool.entries.map { entry in
            let type = types.first { $0.name == entry.name }
            return (entry.name, entry.abstract, type.map(options(of:)) ?? [Option(name: "--help", value: nil)])
        }
    }

    /// The words completed after `livepair help` and `livepair completion`.
    private static func arguments(of name: String) -> String? {
        switch name {
        case "help": return LivePairTool.commandNames.joined(separator: " ")
        case "completion": return "bash zsh fish"
        default: return nil
        }
    }

    /// The bash script (`complete -F`).
    static func bash(_ available: [any Command.Type]) -> String {
        var cases = ""
        for command in table(available) {
            let words = command.options.map(\.name).joined(separator: " ")
            if let arguments = arguments(of: command.name) {
                cases += "        \(command.name)) COMPREPLY=($(compgen -W \"\(arguments) \(words)\" -- \"$cur\")); return ;;\n"
            } else {
                cases += "        \(command.name)) options=\"\(words)\" ;;\n"
            }
        }
        return """
            # bash completion for livepair (livepair completion bash)
            _livepair() {
                local cur="${COMP_WORDS[COMP_CWORD]}" options=""
                if [ "$COMP_CWORD" -eq 1 ]; then
                    COMPREPLY=($(compgen -W "\(LivePairTool.commandNames.joined(separator: " ")) --help --version" -- "$cur"))
                    return
                fi
                case "${COMP_WORDS[1]}" in
            \(cases)        *) return ;;
                esac
                if [[ "$cur" == -* ]]; then
                    COMPREPLY=($(compgen -W "$options" -- "$cur"))
                else
                    COMPREPLY=($(compgen -f -- "$cur"))
                fi
            }
            complete -o filenames -F _livepair livepair

            """
    }

    /// The zsh script (`#compdef`).
    static func zsh(_ available: [any Command.Type]) -> String {
        let subcommands = table(available).map { "    " + quoted("\($0.name):\($0.abstract)", shell: .zsh) }.joined(separator: "\n")
        var cases = ""
        for command in table(available) {
            if let arguments = arguments(of: command.name) {
                cases += "    \(command.name)) _values 'argument' \(arguments) ;;\n"
                continue
            }
            let specs = command.options.map { option in
                quoted(option.value == nil ? option.name : "\(option.name):value:_files", shell: .zsh)
            }
            cases += "    \(command.name)) _arguments \((specs + ["'*:file:_files'"]).joined(separator: " ")) ;;\n"
        }
        return """
            #compdef livepair
            # zsh completion for livepair (livepair completion zsh)
            _livepair() {
              local -a subcommands
              subcommands=(
            \(subcommands)
              )
              if (( CURRENT == 2 )); then
                _describe 'subcommand' subcommands
                return
              fi
              shift words
              (( CURRENT-- ))
              case $words[1] in
            \(cases)  esac
            }
            _livepair "$@"

            """
    }

    /// The fish script (`complete -c`).
    static func fish(_ available: [any Command.Type]) -> String {
        var lines = ["# fish completion for livepair (livepair completion fish)"]
        for command in table(available) {
            lines.append(
                "complete -c livepair -f -n __fish_use_subcommand -a \(command.name) -d "
                    + quoted(command.abstract, shell: .fish))
            let condition = "'__fish_seen_subcommand_from \(command.name)'"
            if let arguments = arguments(of: command.name) {
                lines.append("complete -c livepair -f -n \(condition) -a " + quoted(arguments, shell: .fish))
            }
            for option in command.options {
                let long = String(option.name.dropFirst(2))
                lines.append("complete -c livepair -n \(condition) -l \(long)" + (option.value == nil ? "" : " -r"))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The shells whose quoting differs.
    private enum Shell { case zsh, fish }

    /// `text` in single quotes for `shell`.
    private static func quoted(_ text: String, shell: Shell) -> String {
        switch shell {
        case .zsh: return "'" + text.map { $0 == "'" ? "'\\''" : String($0) }.joined() + "'"
        case .fish: return "'" + text.map { $0 == "'" || $0 == "\\" ? "\\" + String($0) : String($0) }.joined() + "'"
        }
    }
}
