import LivePairCLI
import LivePairLibrary

/// `livepair library albums [show <title>]`: the library's albums (the asset collections an
/// import made from Takeout album folders and iCloud `Albums/*.csv`, or a program made), and one
/// album's assets.
extension LibraryCommand {
    /// Why the arguments after `albums` do not fit, or nil: none, or `show` and one title.
    static func albumsUsageProblem(_ arguments: [String]) -> UsageError? {
        if arguments.isEmpty { return nil }
        guard arguments.first == "show" else { return UsageError("'albums' takes no argument but 'show <title>'.") }
        guard arguments.count == 2 else { return UsageError("'albums show' takes exactly one album title.") }
        return nil
    }

    /// `library albums`: every album in creation order, its title and asset count (hidden assets
    /// included), with `--json` its members' local identifiers in album order; `library albums
    /// show TITLE`: the assets of the albums titled `TITLE` as `list` shows them (exit status 1
    /// when no album has that title).
    static func albums(
        _ arguments: [String], in library: PhotoLibrary, name: String, json: Bool, streams: OutputStreams
    ) throws(LibraryError) -> ExitCode {
        let everyAsset = FetchOptions(includeHiddenAssets: true)
        guard arguments.first == "show", let title = arguments.last else {
            let albums = Array(try library.fetchAssetCollections())
            var members: [[String]] = []
            for album in albums { members.append(try library.fetchAssets(in: album, options: everyAsset).localIdentifiers) }
            if json {
                streams.print(LibraryReport.albumsJSON(library: name, albums: Array(zip(albums, members))).rendered())
            } else {
                streams.print(LibraryReport.albumsText(Array(zip(albums, members.map(\.count)))), terminator: "")
            }
            return .success
        }
        let albums = Array(try library.fetchAssetCollections(withTitle: title))
        guard !albums.isEmpty else {
            streams.printError("Error: no album is titled \(TerminalText.escaped(title))")
            return .failure
        }
        var assets: [Asset] = []
        var seen: Set<String> = []
        for album in albums {
            for asset in try library.fetchAssets(in: album, options: everyAsset) where seen.insert(asset.localIdentifier).inserted {
                assets.append(asset)
            }
        }
        if json {
            streams.print(LibraryReport.albumShowJSON(library: name, albums: albums, assets: assets).rendered())
        } else {
            var resources: [String: [LibraryAssetResource]] = [:]
            for asset in assets { resources[asset.localIdentifier] = try library.assetResources(for: asset) }
            streams.print(LibraryReport.listText(assets, resources: resources, pending: nil), terminator: "")
        }
        return .success
    }
}
