import Foundation
import LivePairCLI
import LivePairFormats

/// What `library export --layout` wrote: per asset its folder and files, and the albums.
struct LayoutExportReport {
    /// One file written.
    struct File {
        /// What it is: a resource type (`photo`, `pairedVideo`, `video`, `fullSizePhoto`,
        /// `fullSizePairedVideo`, `adjustmentData`, ...), `motionPhoto`, `sidecar` or `albumMetadata`.
        var role: String
        /// Its path under the output folder.
        var path: String
        /// How it was made: `copied` (the stored bytes), `restamped` (a Live Photo pair with its
        /// identifier, still-image time and the dates and places written), `converted` (a motion
        /// photo from a Live Photo or the other way round), `written` (a JSON file).
        var handling: String
    }

    /// One asset's export into one folder.
    struct AssetResult {
        /// The asset's local identifier.
        var asset: String
        /// The folder under the output (`""` for the top).
        var folder: String
        /// The files written.
        var files: [File] = []
        /// What was written into the files' metadata: `date`, `location`.
        var metadataWritten: [String] = []
        /// What of the asset was not written, one sentence each.
        var notWritten: [String] = []
        /// Why the asset failed (its files are then removed), or nil.
        var error: String?
    }

    /// One album.
    struct Album {
        /// The title.
        var title: String
        /// Its folder under the output, or nil for a flat export.
        var folder: String?
        /// How many of its assets were exported.
        var count: Int
    }

    /// The layout's name.
    var layout: String
    /// The output folder as given.
    var output: String
    /// Per asset and folder.
    var assets: [AssetResult] = []
    /// The albums exported.
    var albums: [Album] = []

    /// How many assets (not placements) failed.
    var failedCount: Int { Set(assets.filter { $0.error != nil }.map(\.asset)).count }

    /// The JSON report (docs/cli.md, "library export --layout").
    func json() -> JSONElement {
        let files = assets.flatMap(\.files)
        return .object([
            ("schemaVersion", .integer(1)), ("operation", .string("export")), ("layout", .string(layout)),
            ("output", .string(output)),
            (
                "assets",
                .array(
                    assets.map { result in
                        .object([
                            ("asset", .string(result.asset)), ("folder", .string(result.folder)),
                            (
                                "files",
                                .array(
                                    result.files.map {
                                        .object([("role", .string($0.role)), ("path", .string($0.path)), ("handling", .string($0.handling))])
                                    })
                            ),
                            ("metadataWritten", .array(result.metadataWritten.map(JSONElement.string))),
                            ("notWritten", .array(result.notWritten.map(JSONElement.string))),
                            ("error", .optional(result.error)),
                        ])
                    })
            ),
            (
                "albums",
                .array(
                    albums.map {
                        .object([("title", .string($0.title)), ("folder", .optional($0.folder)), ("count", .integer(Int64($0.count)))])
                    })
            ),
            (
                "summary",
                .object([
                    ("assets", .integer(Int64(Set(assets.map(\.asset)).count))), ("failed", .integer(Int64(failedCount))),
                    ("files", .integer(Int64(files.count))), ("albums", .integer(Int64(albums.count))),
                    ("datesWritten", .integer(Int64(assets.filter { $0.metadataWritten.contains("date") }.count))),
                    ("locationsWritten", .integer(Int64(assets.filter { $0.metadataWritten.contains("location") }.count))),
                ])
            ),
        ])
    }

    /// The text report: `role<TAB>path` per file, `error` lines, then a summary line.
    func text() -> String {
        var lines: [String] = []
        for result in assets {
            for file in result.files { lines.append("\(file.role)\t\(TerminalText.path(file.path))") }
            for sentence in result.notWritten { lines.append("not written\t\(result.asset): \(sentence)") }
            if let error = result.error { lines.append("error\t\(result.asset): \(TerminalText.escaped(error))") }
        }
        let exported = Set(assets.filter { $0.error == nil }.map(\.asset)).count
        let dates = assets.filter { $0.metadataWritten.contains("date") }.count
        let places = assets.filter { $0.metadataWritten.contains("location") }.count
        lines.append(
            "exported " + Wording.count(exported, "asset") + " as \(layout) into \(TerminalText.path(output)): "
                + Wording.count(assets.flatMap(\.files).count, "file") + ", " + Wording.count(albums.count, "album")
                + ", date written into \(dates), place into \(places), \(failedCount) failed")
        return lines.joined(separator: "\n") + "\n"
    }
}
