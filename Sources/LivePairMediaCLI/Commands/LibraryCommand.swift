import Foundation
import LivePairCLI
import LivePairFormats
import LivePairLibrary

/// `livepair library init|list|show|albums|export|edit|revert|delete|pending|settle|sweep|derivatives|migrate (--library DIR |
/// --catalog URL --store URL) [--json]`: create a library (or its catalog), look into it, take
/// assets out of it, see or settle the halves waiting for a partner, and remove stored files
/// nothing uses.
public enum LibraryCommand: Command {
    /// The subcommand name.
    public static let name = "library"
    /// One line saying what it does.
    public static let abstract = MediaCommandCatalog.library
    /// The usage line.
    public static let usage = """
        livepair library (init | list | show <id> | albums [show <title>] |
                          export <id> --output <dir> [--for-photos] |
                          export --layout <layout> --output <dir>
                                 [--album <title>] [--since <date>]
                                 [--albums folders|flat] [--still heic|jpeg] |
                          edit <id> [--key-photo <s>] [--trim <a>-<b>] [--mute]
                                    [--volume <0-1>] [--variation <kind>]
                                    [--filter <name>] |
                          edit <id> --adjustments <aae> --photo <file>
                                    [--video <file>] | revert <id> |
                          delete <id> ... | pending [--older-than <age>] |
                          settle --older-than <age> |
                          sweep [--older-than <age>] | derivatives [--missing] |
                          migrate --from <dir> [--batch-size <n>])
                         (--library <dir> |
                          --catalog <url> --store <url> [--s3-endpoint <url>])
                         [--json] [--quiet]
        """
    /// The help text.
    public static let help = """
        OVERVIEW: \(abstract)

        A library is a directory with a content-addressed resource store and a SQLite
        catalog (see the documentation); several processes may use it at once. A
        directory whose catalog is missing, empty or not a LivePair catalog is
        refused, and nothing in it is touched. Only 'init', or an import into a
        missing or empty directory, creates a library. Deleting removes an asset with
        all its resources (a Live Photo's still and movie together). Exported files
        get their original names made safe ("../../etc/passwd" is written as "passwd"
        inside --output).

        USAGE: \(usage)

        ACTIONS:
          init              Create a new, empty library (the directory must be missing
                            or empty; for --catalog: its tables in the database's current
                            schema, which must hold no catalog yet).
          list              Every asset (hidden ones too), in the order they were
                            added: identifier, kind (Live Photo, motion photo,
                            photo, video), pixel size, duration (of what moves),
                            creation date, resources, flags (favorite, hidden,
                            flagged: kept with warnings, see show), original file
                            names; then how many halves are pending.
          show <id>         One asset and its resources.
          albums            Every album: its asset count and title (--json: with
                            its members' identifiers). 'albums show <title>': the
                            album's assets, as list shows them.
          export <id>       Write the asset's resources into --output.
          export --layout   Write the library (or --album, --since) as apple-photos
                            (Live Photos with one identifier, motion photos
                            converted, IMG_E renders and IMG_1234.AAE; also
                            --for-photos without an identifier), google-photos (a
                            Takeout-style tree of motion photos with JSON sidecars
                            and album folders) or folder (the originals with a JSON
                            sidecar each). The library's date and place are written
                            into stills that lack them; file times are set.
          edit <id>         Edit a Live Photo: --key-photo, --trim, --mute, --volume,
                            --variation, --filter as 'livepair edit' takes them, rendered here
                            from the original (an edit of LivePair's, or Photos' key
                            photo, trim, mute and variation, is resumed: the options
                            given change it) or else from the current render, and
                            stored with LivePair's adjustment data in one change; a
                            failure leaves the asset as it was. Or apply an edit made
                            elsewhere: --adjustments (its .AAE, kept byte for byte)
                            and the render, --photo (a still) and, for a Live Photo
                            or video, --video (a movie). Either replaces any earlier
                            edit; the original stays as it is. Prints the asset as
                            'show' does.
          revert <id>       Remove the asset's edit (render and adjustment data); the
                            original stays byte for byte. Prints the asset.
          delete <id> ...   Delete assets with all their resources (100 at a time).
          pending           The Live Photo halves waiting for their partner.
          settle            Import the halves pending at least --older-than alone (a
                            still as a photo, a movie as a video); a partner arriving
                            later still joins them.
          derivatives       Queue every asset's placeholder, grid still and motion movie
                            as derivative jobs in the catalog and make the library's
                            queued jobs into the derivative cache 'livepair serve' reads
                            (one media thread per core; running serve nodes share the
                            jobs; progress on standard error); --missing skips assets
                            whose derivatives are all there.
          sweep             Remove the stored files that no asset, pending half or
                            record uses and that were last changed at least
                            --older-than ago (default 1h): what failed or killed
                            imports left. It looks at the whole store; opening an
                            s3:// store sweeps only one part of it each time.
          migrate           Copy the directory library --from (never changed) into the
                            library named by --catalog/--store (created when missing):
                            assets, resources (each verified by its SHA-256 after the
                            upload), albums and pending halves. Run it again to complete
                            an interrupted run; nothing is copied twice.

        OPTIONS:
          --library <dir>   A directory library (SQLite catalog and resources inside).
          --catalog <url>   A catalog: postgresql://USER@/DB?host=/socket/dir (any libpq
                            URI; PG* variables honoured) or a SQLite file (default:
                            $LIVEPAIR_CATALOG).
          --store <url>     With --catalog: where resource files go, a directory or
                            s3://BUCKET/PREFIX (default: $LIVEPAIR_STORE).
          --s3-endpoint <url>
                            The S3 server of an s3:// store, http://HOST:PORT (default:
                            $LIVEPAIR_S3_ENDPOINT); keys from AWS_ACCESS_KEY_ID,
                            AWS_SECRET_ACCESS_KEY and AWS_REGION.
          --output <dir>    Where export writes (created when missing).
          --adjustments <file>
                            For edit: the edit's adjustment data (an .AAE file).
          --photo <file>    For edit: the rendered still.
          --video <file>    For edit: the rendered movie.
          --key-photo <seconds>
                            For edit: the key photo's time on the original movie.
          --trim <start>-<end>
                            For edit: the part of the movie kept, in seconds.
          --mute            For edit: leave the sound out.
          --volume <0-1>    For edit: scale the sound (0 is --mute, 1 keeps it).
          --variation <kind>
                            For edit: loop, bounce, long-exposure or none.
          --filter <name>   For edit: a frame filter, invert or mono.
          --from <dir>      For migrate: the directory library to copy.
          --batch-size <n>  For migrate: assets per transaction (default: 32).
          --for-photos      Export a Live Photo ready for Apple Photos: the pair is
                            restamped into --output (identifier, still-image-time
                            track at the asset's still-image time); without it,
                            export writes the originals. Without an identifier:
                            --layout apple-photos.
          --layout <layout> For export: apple-photos, google-photos or folder.
          --album <title>   For export --layout: only this album's assets.
          --since <date>    For export --layout: only assets created at or after this
                            date (2024-05-01) or time (2024-05-01T12:00:00Z).
          --albums folders|flat
                            For export --layout: one folder per album (default) or
                            one folder.
          --still heic|jpeg For --layout google-photos: jpeg re-encodes HEIC stills
                            as JPEG motion photos (default heic: kept).
          --older-than <age>
                            For pending and settle: only halves waiting at least this
                            long; for sweep: only files at least this old. A number
                            and a unit: 90s, 30m, 2h, 7d.
          --json            Print one JSON object (schema: see the documentation).
          --quiet           For export and migrate: show no progress. Without it: a bar
                            on a terminal, else a line on standard error every 5
                            seconds.
          -h, --help        Show help information.

        EXIT STATUS:
          0 done, 1 the library or an asset could not be found or changed, 64 usage
          error.
        """

    private static let actions =
        "init | list | show | albums | export | edit | revert | delete | pending | settle | sweep | derivatives | migrate"

    /// Runs `library`.
    public static func run(_ arguments: [String], streams: OutputStreams) -> ExitCode {
        let parsed: ParsedArguments
        do {
            parsed = try ParsedArguments(
                arguments, flags: Set(["json", "for-photos", "quiet", "missing"]).union(editFlags), options: LibrarySelection.optionNames.union(["output", "older-than", "from", "batch-size"]).union(editOptions)
                    .union(layoutExportOptions))
        } catch {
            return usageFailure(error, streams: streams)
        }
        if parsed.has("help") {
            streams.print(HelpText.wrapped(help))
            return .success
        }
        guard let action = parsed.positionals.first else {
            return usageFailure(UsageError("Missing expected argument '\(actions)'."), streams: streams)
        }
        let selection: LibrarySelection
        do throws(UsageError) {
            selection = try LibrarySelection(parsed)
        } catch {
            return usageFailure(error, streams: streams)
        }
        let identifiers = Array(parsed.positionals.dropFirst())
        if let problem = usageProblem(action: action, identifiers: identifiers, parsed: parsed) {
            return usageFailure(problem, streams: streams)
        }
        var age: Double?
        if let text = parsed.options["older-than"] {
            guard let seconds = AgeArgument.seconds(text) else {
                return usageFailure(
                    UsageError("--older-than takes a number and a unit (s, m, h or d), for example 30m; got '\(text)'."),
                    streams: streams)
            }
            age = seconds
        }
        var batchSize: Int?
        if let text = parsed.options["batch-size"] {
            guard action == "migrate" else { return usageFailure(UsageError("--batch-size is only for 'migrate'."), streams: streams) }
            guard let number = Int(text), (1...10_000).contains(number) else {
                return usageFailure(UsageError("--batch-size takes a number from 1 to 10000; got '\(text)'."), streams: streams)
            }
            batchSize = number
        }
        let json = parsed.has("json")
        let quiet = parsed.has("quiet")
        let changes = ["init", "delete", "settle", "sweep", "migrate", "edit", "revert", "derivatives"].contains(action)
        let openMode: LibraryOpenMode = action == "init" ? .createNew : action == "migrate" ? .createIfNeeded : .openExisting
        let configuration = LibraryConfiguration(openMode: openMode, access: changes ? .readWrite : .readOnly)
        do throws(LibraryError) {
            if action == "migrate", let from = parsed.options["from"] {
                return try migrate(
                    from: from, into: selection, configuration: configuration, batchSize: batchSize ?? 32, json: json,
                    quiet: quiet, streams: streams)
            }
            let library = try selection.open(configuration: configuration, create: action == "init")
            switch action {
            case "init":
                _ = CatalogDurabilityCheck.check(library, require: false, streams: streams)
                return try initialized(library, name: selection.name, json: json, streams: streams)
            case "list": return try list(library, json: json, streams: streams)
            case "show": return try show(identifiers[0], in: library, json: json, streams: streams)
            case "albums": return try albums(identifiers, in: library, name: selection.name, json: json, streams: streams)
            case "edit", "revert":
                return try edit(identifiers[0], in: library, action: action, parsed: parsed, json: json, streams: streams)
            case "export":
                InterruptCleanup.shared.install()
                if identifiers.isEmpty {
                    switch layoutExportOptions(parsed.options, forPhotos: parsed.has("for-photos")) {
                    case let .failure(problem): return usageFailure(problem, streams: streams)
                    case let .success(options):
                        return try layoutExport(
                            library, options: options, output: parsed.options["output"] ?? ".", json: json, quiet: quiet,
                            streams: streams)
                    }
                }
                if parsed.has("for-photos") {
                    return try LibraryPhotosExport.run(
                        identifiers[0], from: library, to: parsed.options["output"] ?? ".", json: json, quiet: quiet,
                        streams: streams)
                }
                return try export(
                    identifiers[0], from: library, to: parsed.options["output"] ?? ".", json: json, quiet: quiet, streams: streams)
            case "pending": return try pending(library, olderThan: age ?? 0, json: json, streams: streams)
            case "settle": return try settle(library, olderThan: age ?? 0, json: json, streams: streams)
            case "derivatives":
                return try derivatives(
                    library, sharedStore: selection.directory == nil, missingOnly: parsed.has("missing"), json: json, streams: streams)
            case "sweep":
                return try sweep(
                    library, olderThan: age ?? configuration.orphanGracePeriod, name: selection.name, json: json,
                    streams: streams)
            default: return try delete(identifiers, from: library, json: json, streams: streams)
            }
        } catch {
            // Errors about a library directory name it already; a catalog's are prefixed with its name.
            if selection.directory == nil {
                streams.printError("Error: " + TerminalText.message(about: selection.name, ConnectionText.redacted(error.description)))
            } else {
                streams.printError("Error: " + TerminalText.escaped(ConnectionText.redacted(error.description)))
            }
            return .failure
        }
    }

    /// Why the arguments do not fit `action`, or nil.
    private static func usageProblem(action: String, identifiers: [String], parsed: ParsedArguments) -> UsageError? {
        let options = parsed.options
        switch action {
        case "init", "list", "pending", "settle", "sweep", "derivatives", "migrate":
            guard identifiers.isEmpty else { return UsageError("'\(action)' takes no identifiers.") }
            if action == "migrate", options["from"] == nil { return UsageError("Missing expected option '--from <dir>'.") }
            if action == "settle", options["older-than"] == nil {
                return UsageError("Missing expected option '--older-than <age>'.")
            }
        case "export":
            guard identifiers.count <= 1 else { return UsageError("'export' takes at most one asset identifier.") }
            if options["output"] == nil { return UsageError("Missing expected option '--output <dir>'.") }
            if !identifiers.isEmpty, let option = layoutExportOptions.sorted().first(where: { options[$0] != nil }) {
                return UsageError("--\(option) exports the library or an album, not one asset: leave out the identifier.")
            }
        case "albums":
            if let problem = albumsUsageProblem(identifiers) { return problem }
        case "show", "edit", "revert":
            guard identifiers.count == 1 else { return UsageError("'\(action)' takes exactly one asset identifier.") }
            if let problem = editUsageProblem(action: action, parsed: parsed) { return problem }
        case "delete":
            guard !identifiers.isEmpty else { return UsageError("'delete' needs at least one asset identifier.") }
        default:
            return UsageError("Unknown action '\(action)'.")
        }
        if options["older-than"] != nil, !["pending", "settle", "sweep"].contains(action) {
            return UsageError("--older-than is only for 'pending', 'settle' and 'sweep'.")
        }
        if options["from"] != nil, action != "migrate" { return UsageError("--from is only for 'migrate'.") }
        if action != "export", let option = layoutExportOptions.sorted().first(where: { options[$0] != nil }) {
            return UsageError("--\(option) is only for 'export'.")
        }
        if action != "edit", let option = editOptions.sorted().first(where: { options[$0] != nil }) {
            return UsageError("--\(option) is only for 'edit'.")
        }
        if action != "edit", let flag = editFlags.sorted().first(where: parsed.has) {
            return UsageError("--\(flag) is only for 'edit'.")
        }
        return nil
    }

    private static func initialized(
        _ library: PhotoLibrary, name: String, json: Bool, streams: OutputStreams
    ) throws(LibraryError) -> ExitCode {
        if json {
            streams.print(
                JSONElement.object([
                    ("library", .string(name)), ("identity", .optional(library.identity)), ("created", .bool(true)),
                    ("changeSequence", .integer(try library.currentChangeSequence())),
                ]).rendered())
        } else {
            streams.print("created library " + TerminalText.path(name))
        }
        return .success
    }

    private static func list(_ library: PhotoLibrary, json: Bool, streams: OutputStreams) throws(LibraryError) -> ExitCode {
        let assets = Array(try library.fetchAssets(with: FetchOptions(includeHiddenAssets: true)))
        var resources: [String: [LibraryAssetResource]] = [:]
        if !json {
            for asset in assets { resources[asset.localIdentifier] = try library.assetResources(for: asset) }
        }
        let pending = try Ingestor(library: library).pendingUploads(olderThan: 0).count
        if json {
            var albums: [String: [String]] = [:]
            for album in try library.fetchAssetCollections() {
                for identifier in try library.fetchAssets(in: album, options: FetchOptions(includeHiddenAssets: true)).localIdentifiers {
                    albums[identifier, default: []].append(album.title)
                }
            }
            streams.print(
                LibraryReport.listJSON(library: library.directory, assets: assets, pending: pending, albums: albums).rendered())
        } else {
            streams.print(LibraryReport.listText(assets, resources: resources, pending: pending), terminator: "")
        }
        return .success
    }

    static func asset(_ identifier: String, in library: PhotoLibrary) throws(LibraryError) -> Asset {
        guard let asset = try library.fetchAssets(withLocalIdentifiers: [identifier]).firstObject else {
            throw .notFound(localIdentifier: identifier)
        }
        return asset
    }

    static func show(
        _ identifier: String, in library: PhotoLibrary, json: Bool, streams: OutputStreams
    ) throws(LibraryError) -> ExitCode {
        let asset = try asset(identifier, in: library)
        let resources = try library.assetResources(for: asset)
        if json {
            streams.print(LibraryReport.showJSON(asset, resources: resources).rendered())
        } else {
            streams.print(LibraryReport.showText(asset, resources: resources), terminator: "")
        }
        return .success
    }

    private static func export(
        _ identifier: String, from library: PhotoLibrary, to output: String, json: Bool, quiet: Bool, streams: OutputStreams
    ) throws(LibraryError) -> ExitCode {
        let asset = try asset(identifier, in: library)
        let resources = try library.assetResources(for: asset)
        let progress = exportProgress(resources.count, quiet: quiet, streams: streams)
        defer { progress.finish() }
        let created = FileSystemPath.createDirectories(output)
        guard created == 0 else {
            throw .io(path: output, reason: "cannot create the output directory: " + FileSystemPath.errorText(created))
        }
        let manager = AssetResourceManager(library: library)
        var written: [(LibraryAssetResource, String)] = []
        var usedNames: Set<String> = []
        for resource in resources {
            let name = uniqueName(resource.exportFilename, in: output, avoiding: usedNames)
            usedNames.insert(name)
            let path = (output.hasSuffix("/") ? output : output + "/") + name
            try manager.writeData(for: resource, toFile: path)
            written.append((resource, path))
            progress.advance()
        }
        progress.finish()
        if json {
            streams.print(LibraryReport.exportJSON(asset, files: written).rendered())
        } else {
            for (resource, path) in written { streams.print("\(resource.type.rawValue)\t\(TerminalText.path(path))") }
        }
        return .success
    }

    /// The progress of an export of `count` resources.
    static func exportProgress(_ count: Int, quiet: Bool, streams: OutputStreams) -> ProgressReporter {
        ProgressReporter.longWork(streams: streams, label: "library export", unit: "resources", total: count, quiet: quiet)
    }

    /// `name`, or `stem-2.ext`, `stem-3.ext`, ... when a file of that name exists or was written.
    static func uniqueName(_ name: String, in directory: String, avoiding used: Set<String>) -> String {
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let stem = dot.map { String(name[..<$0]) } ?? name
        let suffix = dot.map { String(name[$0...]) } ?? ""
        var candidate = name
        var number = 2
        while used.contains(candidate) || FileSystemPath.linkStatus(directory + "/" + candidate) != nil {
            candidate = "\(stem)-\(number)\(suffix)"
            number += 1
        }
        return candidate
    }

    private static func delete(
        _ identifiers: [String], from library: PhotoLibrary, json: Bool, streams: OutputStreams
    ) throws(LibraryError) -> ExitCode {
        let result = try library.deleteAssets(withLocalIdentifiers: identifiers)
        if json {
            streams.print(LibraryReport.deleteJSON(result).rendered())
        } else {
            for identifier in result.deletedAssets { streams.print("deleted \(identifier)") }
        }
        return .success
    }
}
