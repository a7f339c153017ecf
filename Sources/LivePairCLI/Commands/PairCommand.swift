import LivePairCore

/// `livepair pair [--json] [--match-names] PATH...`: which files belong together.
public enum PairCommand: Command {
    /// The subcommand name.
    public static let name = "pair"
    /// One line saying what it does.
    public static let abstract = "Say which files form Live Photos, which are motion photos, and which are alone or duplicated."
    /// The usage line.
    public static let usage = "livepair pair [--json] [--match-names] <path> ..."
    /// The help text.
    public static let help = """
        OVERVIEW: \(abstract)

        Stills and movies pair by content identifier, never by name, so halves may be in different
        folders and have any names. When several files carry one identifier, the pair is chosen by
        folder, then name, then capture time, and the ambiguity is reported. Byte-identical copies and
        loose movies equal to a motion photo's embedded video are reported as duplicates.
        Files are only read, never changed. The pairing rules are in the documentation.

        USAGE: \(usage)

        ARGUMENTS:
          <path>                  Files or directories (read recursively).

        OPTIONS:
          --json                  Print one JSON object (schema: see the documentation).
          --match-names           Also pair a still and a movie that both lack identifiers when they
                                  share folder and name and were taken within 3 seconds of each
                                  other; such pairs are marked weak (stamp them with 'livepair restamp').
          -h, --help              Show help information.

        EXIT STATUS:
          0 done, 1 a file could not be read, 64 usage error, 66 no photo or movie
          among the files.
        """

    /// Runs `pair`.
    public static func run(_ arguments: [String], streams: OutputStreams) -> ExitCode {
        let parsed: ParsedArguments
        switch parsePaths(arguments, flags: ["json", "match-names"], streams: streams) {
        case let .exit(code): return code
        case let .run(arguments): parsed = arguments
        }
        let (files, links, anyMissing) = FileIdentification.collect(parsed.positionals, streams: streams)
        let identities = FileIdentification.identifyAll(files, links: links, label: "Pairing", streams: streams)
        var options = PairingOptions()
        options.matchNames = parsed.has("match-names")
        let result = Pairing.pair(identities.map(AssetResource.init), options: options)
        if parsed.has("json") {
            streams.print(PairReport.json(result))
        } else {
            var buffer = OutputBuffer(capacity: 256 * (identities.count + 2))
            PairReport.writeText(result, into: &buffer)
            streams.write(buffer.bytes)
        }
        let failed = anyMissing || identities.contains { !$0.isComplete }
        return failed ? .failure : FileIdentification.successOrNoMedia(identities, paths: parsed.positionals, streams: streams)
    }
}
