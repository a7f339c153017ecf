import LivePairCLI
import LivePairFormats
import LivePairLibrary

/// What `livepair library albums` prints (schema: docs/cli.md).
extension LibraryReport {
    /// One album as JSON: identifier, title, creation date, asset count; its members when given.
    static func json(_ album: AssetCollection, members: [String]? = nil) -> JSONElement {
        var fields: [(String, JSONElement)] = [
            ("localIdentifier", .string(album.localIdentifier)), ("title", .string(album.title)),
            ("creationDate", iso8601(album.creationDate)), ("count", .integer(Int64(album.assetCount))),
        ]
        if let members { fields.append(("members", .array(members.map(JSONElement.string)))) }
        return .object(fields)
    }

    /// `library albums --json`: every album with its members' local identifiers, in album order.
    static func albumsJSON(library: String, albums: [(AssetCollection, [String])]) -> JSONElement {
        .object([
            ("library", .string(library)), ("count", .integer(Int64(albums.count))),
            ("albums", .array(albums.map { json($0.0, members: $0.1) })),
        ])
    }

    /// `library albums`: a header row and one row per album (asset count, then the title), then
    /// how many albums (alone when there is none).
    static func albumsText(_ albums: [(AssetCollection, Int)]) -> String {
        let rows = albums.map { [String($0.1), TerminalText.escaped($0.0.title)] }
        return (albums.isEmpty ? "" : table([["ASSETS", "TITLE"]] + rows)) + Wording.count(albums.count, "album") + "\n"
    }

    /// `library albums show TITLE --json`: the albums of that title and their assets (each once,
    /// as `list --json` gives them).
    static func albumShowJSON(library: String, albums: [AssetCollection], assets: [Asset]) -> JSONElement {
        .object([
            ("library", .string(library)), ("albums", .array(albums.map { json($0) })),
            ("count", .integer(Int64(assets.count))), ("assets", .array(assets.map { json($0) })),
        ])
    }
}
