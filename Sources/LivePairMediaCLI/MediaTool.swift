import LivePair
public import LivePairCLI

/// `livepair-media`: the same `LivePairTool`, with the media commands, deep validation and the
/// archive reader in process. `livepair` hands these commands over to it (see `MediaCommands`).
public enum MediaTool {
    /// The media commands and the media bridge's deep validation, in this process.
    public static let media = MediaCommands.inProcess(
        commands: [
            PreviewCommand.self, MakeCommand.self, RestampCommand.self, ConvertCommand.self, EditCommand.self, LibraryCommand.self,
            ImportCommand.self, MigrateCommand.self, ServeCommand.self,
        ],
        deepValidation: { options in Validator.mediaDeepValidation(options: options) },
        archives: LibarchiveExportArchives())

    /// Runs `livepair arguments...` with everything in this process and returns the exit status.
    /// When SIGINT or SIGTERM arrived during the run, it does not return: the interrupt cleanup ends
    /// the process with 128 + the signal once it has removed what the run wrote.
    public static func main(_ arguments: [String], streams: OutputStreams) -> ExitCode {
        let status = LivePairTool.main(arguments, streams: streams, media: media)
        InterruptCleanup.shared.waitIfInterrupted()
        return status
    }
}
