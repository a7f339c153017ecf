import Foundation
import LivePairCLI
import LivePairLibrary

/// `livepair library init|list|show|export|delete (--library DIR | --catalog URL --store URL) [--json]`:
/// create a library's catalog, look into a library and take assets out of it.
public enum LibraryCommand: Command {
    /// The subcommand name.
    public static let name = "library"
    /// One line saying what it does.
    public static let abstract = MediaCommandCatalog.library
    /// The usage line.
    public static let usage =
        "livepair library (init | list | show <id> | export <id> --output <dir> | delete <id> ...) (--library <dir> | --catalog <url> --store <url>) [--json]"
    /// The help text.
    public static let help = """
        OVERVIEW: \(abstract)

        A library is a directory with a content-addressed resource store and a SQLite catalog
        (docs/library.md). Several processes may use it at once. Deleting removes an asset with all
        its resources (a Live Photo's still and movie together), in one batch: all or nothing.
        Exported files are named after their original names made safe (a name such as
        "../../etc/passwd" is written as "passwd" inside the output directory).

        USAGE: \(usage)

        ACTIONS:
          init                    Create the catalog (for --catalog: its tables in the database's
                                  current schema; an existing one is upgraded, a newer one refused).
          list                    Every asset (hidden ones included), in the order they were added.
          show <id>               One asset and its resources.
          export <id>             Write the asset's resources into --output (created when missing).
          delete <id> ...         Delete assets with all their resources.

        OPTIONS:
        \(LibrarySelection.helpLines)
          --output <dir>          Where export writes.
          --json                  Print one JSON object (schema: docs/cli.md).
          -h, --help              Show help information.

        EXIT STATUS:
          0 done, 1 the library or an asset could not be found or changed, 64 usage error.
        """

    /// Runs `library`.
    public static func run(_ arguments: [String], streams: OutputStreams) -> ExitCode {
        let parsed: ParsedArguments
        do {
            parsed = try ParsedArguments(arguments, flags: ["json"], options: LibrarySelection.optionNames.union(["output"]))
        } catch {
            return usageFailure(error, streams: streams)
        }
        if parsed.has("help") {
            streams.print(help)
            return .success
        }
        guard let action = parsed.positionals.first else {
            return usageFailure(UsageError("Missing expected argument 'init | list | show | export | delete'."), streams: streams)
        }
        let selection: LibrarySelection
        do throws(UsageError) {
            selection = try LibrarySelection(parsed)
        } catch {
            return usageFailure(error, streams: streams)
        }
        let identifiers = Array(parsed.positionals.dropFirst())
        switch action {
        case "init", "list":
            guard identifiers.isEmpty else { return usageFailure(UsageError("'\(action)' takes no identifiers."), streams: streams) }
        case "show", "export":
            guard identifiers.count == 1 else {
                return usageFailure(UsageError("'\(action)' takes exactly one asset identifier."), streams: streams)
            }
            if action == "export", parsed.options["output"] == nil {
                return usageFailure(UsageError("Missing expected option '--output <dir>'."), streams: streams)
            }
        case "delete":
            guard !identifiers.isEmpty else {
                return usageFailure(UsageError("'delete' needs at least one asset identifier."), streams: streams)
            }
        default:
            return usageFailure(UsageError("Unknown action '\(action)'."), streams: streams)
        }
        if action == "init" { return initialize(selection, json: parsed.has("json"), streams: streams) }
        if let directory = selection.directory, !FileManager.default.fileExists(atPath: directory + "/" + PhotoLibrary.catalogFileName) {
            streams.printError("Error: \(directory): no LivePair library here")
            return .failure
        }
        let json = parsed.has("json")
        do throws(LibraryError) {
            let library = try selection.open()
            switch action {
            case "list": return try list(library, json: json, streams: streams)
            case "show": return try show(identifiers[0], in: library, json: json, streams: streams)
            case "export":
                return try export(identifiers[0], from: library, to: parsed.options["output"] ?? ".", json: json, streams: streams)
            default: return try delete(identifiers, from: library, json: json, streams: streams)
            }
        } catch {
            streams.printError("Error: \(error)")
            return .failure
        }
    }

    /// `init`: opens the library with `create`, which creates (or upgrades) its catalog.
    private static func initialize(_ selection: LibrarySelection, json: Bool, streams: OutputStreams) -> ExitCode {
        do throws(LibraryError) {
            let library = try selection.open(create: true)
            let sequence = try library.currentChangeSequence()
            if json {
                streams.print(
                    JSONValue.object([
                        ("library", .string(selection.name)), ("created", .bool(true)), ("changeSequence", .integer(sequence)),
                    ]).rendered())
            } else {
                streams.print("Library ready: \(selection.name)")
            }
            return .success
        } catch {
            streams.printError("Error: \(selection.name): \(error)")
            return .failure
        }
    }

    private static func list(_ library: PhotoLibrary, json: Bool, streams: OutputStreams) throws(LibraryError) -> ExitCode {
        let assets = Array(try library.fetchAssets(with: FetchOptions(includeHiddenAssets: true)))
        var resourceCounts: [String: Int] = [:]
        for asset in assets { resourceCounts[asset.localIdentifier] = try library.assetResources(for: asset).count }
        if json {
            streams.print(LibraryReport.listJSON(library: library.directory, assets: assets).rendered())
        } else {
            streams.print(LibraryReport.listText(assets, resourceCounts: resourceCounts), terminator: "")
        }
        return .success
    }

    private static func asset(_ identifier: String, in library: PhotoLibrary) throws(LibraryError) -> Asset {
        guard let asset = try library.fetchAssets(withLocalIdentifiers: [identifier]).firstObject else {
            throw .notFound(localIdentifier: identifier)
        }
        return asset
    }

    private static func show(
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
        _ identifier: String, from library: PhotoLibrary, to output: String, json: Bool, streams: OutputStreams
    ) throws(LibraryError) -> ExitCode {
        let asset = try asset(identifier, in: library)
        let resources = try library.assetResources(for: asset)
        do {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        } catch {
            throw .io(path: output, reason: "cannot create the output directory")
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
        }
        if json {
            streams.print(LibraryReport.exportJSON(asset, files: written).rendered())
        } else {
            for (resource, path) in written { streams.print("\(resource.type.rawValue)\t\(path)") }
        }
        return .success
    }

    /// `name`, or `stem-2.ext`, `stem-3.ext`, ... when a file of that name exists or was written.
    private static func uniqueName(_ name: String, in directory: String, avoiding used: Set<String>) -> String {
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let stem = dot.map { String(name[..<$0]) } ?? name
        let suffix = dot.map { String(name[$0...]) } ?? ""
        var candidate = name
        var number = 2
        while used.contains(candidate) || FileManager.default.fileExists(atPath: directory + "/" + candidate) {
            candidate = "\(stem)-\(number)\(suffix)"
            number += 1
        }
        return candidate
    }

    private static func delete(
        _ identifiers: [String], from library: PhotoLibrary, json: Bool, streams: OutputStreams
    ) throws(LibraryError) -> ExitCode {
        let result = try library.performChangesAndWait { context in
            context.deleteAssets(withLocalIdentifiers: identifiers)
        }
        if json {
            streams.print(LibraryReport.deleteJSON(result).rendered())
        } else {
            for identifier in result.deletedAssets { streams.print("deleted \(identifier)") }
        }
        return .success
    }
}
