import LivePairCore

/// `livepair pair [--json] [--match-names] [--layout LAYOUT] PATH...`: which files belong together.
public enum PairCommand: Command {
    /// The subcommand name.
    public static let name = "pair"
    /// One line saying what it does.
    public static let abstract = "Say which files form Live Photos, which are motion photos, and which are alone or duplicated."
    /// The usage line.
    public static let usage = "livepair pair [--json] [--match-names] [--layout <layout>] <path> ..."
    /// The help text.
    public static let help = """
        OVERVIEW: \(abstract)

        Stills and movies pair by content identifier, never by name, so halves may be in different
        folders and have any names. When several files carry one identifier, the pair is chosen by
        folder, then name, then capture time, and the ambiguity is reported. Byte-identical copies and
        loose movies equal to a motion photo's embedded video are reported as duplicates.
        Files are only read, never changed. The pairing rules are in the documentation.
        An export (Google Takeout) is read as its layout says: JSON sidecars give dates, places,
        favourites and captions, album folders give albums, and every file is reported as media,
        sidecar, album metadata or ignored with a reason. Zip and tgz parts are read in place.

        USAGE: \(usage)

        ARGUMENTS:
          <path>                  Files, directories (read recursively) or archive parts
                                  (.zip, .tgz, .tar.gz: read in place, merged into one tree).

        OPTIONS:
          --json                  Print one JSON object (schema: see the documentation).
          --match-names           Also pair a still and a movie that both lack identifiers when they
                                  share folder and name and were taken within 3 seconds of each
                                  other; such pairs are marked weak (stamp them with 'livepair restamp').
          --layout <layout>       takeout, icloud, icloudpd, image-capture, smart-switch, folder or plain
                                  (default: detected from the files; takeout when a path runs
                                  through Takeout/Google Photos/). takeout and icloud read their
                                  sidecars; the others pair every file on its content.
          -h, --help              Show help information.

        EXIT STATUS:
          0 done, 1 a file could not be read, 64 usage error, 66 no photo or movie
          among the files.
        """

    /// Runs `pair` in this process (archive parts are handed to `livepair-media`).
    public static func run(_ arguments: [String], streams: OutputStreams) -> ExitCode {
        run(arguments, streams: streams, media: .unavailable)
    }

    /// Runs `pair`; archive parts are read through `media`'s archive reader (or handed over to it).
    static func run(_ arguments: [String], streams: OutputStreams, media: MediaCommands) -> ExitCode {
        let parsed: ParsedArguments
        switch parsePaths(arguments, flags: ["json", "match-names"], options: ["layout"], streams: streams) {
        case let .exit(code): return code
        case let .run(arguments): parsed = arguments
        }
        let layout: ExportLayout?
        do throws(UsageError) {
            layout = try parsed.exportLayout()
        } catch {
            return usageFailure(error, streams: streams)
        }
        let (files, links, anyMissing) = FileIdentification.collect(parsed.positionals, streams: streams)
        let parts = files.filter(ExportTreePath.isArchiveName)
        if parts.isEmpty, !(layout ?? ExportLayout.detect(paths: files)).hasSidecars {
            return pairPlain(files, links: links, anyMissing: anyMissing, parsed: parsed, streams: streams)
        }
        var archives: (any ExportArchiveStreaming)?
        if case let .inProcess(_, _, reader) = media { archives = reader }
        if !parts.isEmpty, archives == nil { return media.handOver([name] + arguments, streams: streams) }
        let plainFiles = files.filter { !ExportTreePath.isArchiveName($0) && links[$0] == nil }
        var (entries, failures) = ExportReader(archives: archives).read(files: plainFiles, archives: parts)
        // Further paths to one file (hard links, a link and its target): reported, read once.
        entries += links.keys.sorted().map { ExportEntry(path: $0, location: $0, content: .skipped(reason: "same-file")) }
        for failure in failures {
            streams.printError("Error: \(TerminalText.path(failure.path)): \(TerminalText.escaped(failure.message))")
        }
        let contents = ExportContentSource(files: Set(plainFiles))
        let identities = entries.compactMap { entry -> ResourceIdentity? in
            if case let .identified(identity) = entry.content { return identity }
            return nil
        }
        let failed = anyMissing || !failures.isEmpty || identities.contains { !$0.isComplete && Self.isMediaName($0.path) }
        let chosen = layout ?? ExportLayout.detect(paths: entries.map(\.path))
        if chosen.hasSidecars {
            let plan = ExportPlanner.plan(chosen, entries, contents: contents)
            if parsed.has("json") {
                streams.print(TakeoutReport.json(plan, layout: chosen))
            } else {
                var buffer = OutputBuffer(capacity: 256 * (plan.files.count + 2))
                TakeoutReport.writeText(plan, into: &buffer)
                streams.write(buffer.bytes)
            }
        } else {
            var options = PairingOptions()
            options.matchNames = parsed.has("match-names")
            let all = entries.map { entry -> ResourceIdentity in
                if case let .identified(identity) = entry.content { return identity }
                return ResourceIdentity(path: entry.path)
            }
            print(Pairing.pair(all.map(AssetResource.init), options: options, contents: contents), json: parsed.has("json"), streams: streams)
        }
        return failed ? .failure : FileIdentification.successOrNoMedia(identities, paths: parsed.positionals, streams: streams)
    }

    /// `pair` on files as they are (no archive parts, plain layout).
    private static func pairPlain(
        _ files: [String], links: [String: String], anyMissing: Bool, parsed: ParsedArguments, streams: OutputStreams
    ) -> ExitCode {
        let identities = FileIdentification.identifyAll(files, links: links, label: "Pairing", streams: streams)
        var options = PairingOptions()
        options.matchNames = parsed.has("match-names")
        print(Pairing.pair(identities.map(AssetResource.init), options: options), json: parsed.has("json"), streams: streams)
        let failed = anyMissing || identities.contains { !$0.isComplete }
        return failed ? .failure : FileIdentification.successOrNoMedia(identities, paths: parsed.positionals, streams: streams)
    }

    private static func print(_ result: PairingResult, json: Bool, streams: OutputStreams) {
        if json {
            streams.print(PairReport.json(result))
        } else {
            var buffer = OutputBuffer(capacity: 256 * (result.pairs.count + result.unpaired.count + 2))
            PairReport.writeText(result, into: &buffer)
            streams.write(buffer.bytes)
        }
    }

    /// Whether a damaged file counts as a failure in an export: a JSON sidecar's problems are
    /// reported in the plan instead.
    private static func isMediaName(_ path: String) -> Bool { !ExportEntry.isJSONName(path) }
}
