import Foundation
import LivePair
import LivePairCLI
import LivePairFormats
import LivePairLibrary

/// What `livepair library` prints, as text and JSON (schema: see the documentation).
enum LibraryReport {
    /// An ISO 8601 date with fractional seconds, in UTC.
    static func iso8601(_ date: Date?) -> JSONElement {
        guard let date else { return .null }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return .string(formatter.string(from: date))
    }

    /// One asset as JSON; `albums`: the titles of the albums it is in, when listed.
    static func json(_ asset: Asset, albums: [String]? = nil) -> JSONElement {
        var fields: [(String, JSONElement)] = [
            ("localIdentifier", .string(asset.localIdentifier)),
            ("mediaType", .string(asset.mediaType.description)),
            ("mediaSubtypes", .array(asset.mediaSubtypes.names.map(JSONElement.string))),
            ("pixelWidth", .integer(Int64(asset.pixelWidth))),
            ("pixelHeight", .integer(Int64(asset.pixelHeight))),
            ("duration", .number(asset.duration)),
            ("creationDate", iso8601(asset.creationDate)),
            (
                "location",
                asset.location.map { .object([("latitude", .number($0.latitude)), ("longitude", .number($0.longitude))]) }
                    ?? .null
            ),
            ("isFavorite", .bool(asset.isFavorite)),
            ("isHidden", .bool(asset.isHidden)),
            ("contentIdentifier", .optional(asset.contentIdentifier)),
            ("owner", .optional(asset.owner)),
            ("addedDate", iso8601(asset.addedDate)),
            ("stillImageTime", asset.stillImageTime.map(JSONElement.number) ?? .null),
            ("findings", .array(asset.findings.map(ValidateReport.findingJSON))),
            ("hasAdjustments", .bool(asset.hasAdjustments)),
            ("caption", .optional(asset.caption)),
        ]
        if let albums { fields.append(("albums", .array(albums.map(JSONElement.string)))) }
        return .object(fields)
    }

    /// One resource as JSON.
    static func json(_ resource: LibraryAssetResource) -> JSONElement {
        .object([
            ("type", .string(resource.type.rawValue)),
            ("originalFilename", .optional(resource.originalFilename)),
            ("uniformTypeIdentifier", .optional(resource.uniformTypeIdentifier)),
            ("size", .integer(Int64(resource.size))),
            ("digest", .string(resource.digest.hex)),
        ])
    }

    /// `library list --json`.
    static func listJSON(library: String, assets: [Asset], pending: Int, albums: [String: [String]]) -> JSONElement {
        .object([
            ("library", .string(library)), ("count", .integer(Int64(assets.count))), ("pending", .integer(Int64(pending))),
            ("assets", .array(assets.map { json($0, albums: albums[$0.localIdentifier] ?? []) })),
        ])
    }

    /// What an asset is, as `library list` shows it: `Live Photo` (a still and its paired movie),
    /// `motion photo` (a still with its movie inside), `photo` or `video`.
    static func kind(_ asset: Asset, resources: [LibraryAssetResource]) -> String {
        if asset.isLivePhoto {
            return resources.contains { $0.type == .pairedVideo } ? "Live Photo" : "motion photo"
        }
        return asset.mediaType == .video ? "video" : asset.mediaType == .image ? "photo" : asset.mediaType.description
    }

    /// The flags of an asset (`favorite`, `hidden`, and `flagged` when it keeps a warning or an
    /// error finding, which `library show` lists), or `-`.
    static func flags(_ asset: Asset) -> String {
        var flags: [String] = []
        if asset.isFavorite { flags.append("favorite") }
        if asset.isHidden { flags.append("hidden") }
        if asset.findings.contains(where: { $0.severity != .info }) { flags.append("flagged") }
        return flags.isEmpty ? "-" : flags.joined(separator: ",")
    }

    /// `library list`: a header row, one row per asset in columns two spaces apart (the original
    /// file names last: the still's, then ` + ` its movie's), then the counts (alone when there
    /// is no asset; the pending halves left out when `pending` is nil).
    static func listText(_ assets: [Asset], resources: [String: [LibraryAssetResource]], pending: Int?) -> String {
        let header = ["IDENTIFIER", "KIND", "SIZE", "DURATION", "CREATED", "RESOURCES", "FLAGS", "NAME"]
        let rows = assets.map { asset -> [String] in
            let owned = resources[asset.localIdentifier] ?? []
            let kind = kind(asset, resources: owned)
            let names = owned.filter { [.photo, .pairedVideo, .video].contains($0.type) }.compactMap(\.originalFilename)
            return [
                TerminalText.escaped(asset.localIdentifier), kind, "\(asset.pixelWidth)x\(asset.pixelHeight)",
                kind == "photo" ? "-" : String(format: "%.3fs", asset.duration), iso8601(asset.creationDate).stringValue ?? "-",
                String(owned.count), flags(asset), names.isEmpty ? "-" : names.map(TerminalText.path).joined(separator: " + "),
            ]
        }
        // An empty library: the counts alone.
        var text = assets.isEmpty ? "" : table([header] + rows)
        text += Wording.count(assets.count, "asset")
        if let pending { text += ", " + Wording.count(pending, "pending half", plural: "pending halves") }
        return text + "\n"
    }

    /// Rows in columns two spaces apart (the last column not padded), one line each.
    static func table(_ rows: [[String]]) -> String {
        var widths: [Int] = []
        for row in rows {
            for (column, cell) in row.enumerated() {
                if column == widths.count { widths.append(0) }
                widths[column] = max(widths[column], cell.count)
            }
        }
        var text = ""
        for row in rows {
            for (column, cell) in row.enumerated() {
                text += column < row.count - 1 ? cell.padding(toLength: widths[column] + 2, withPad: " ", startingAt: 0) : cell
            }
            text += "\n"
        }
        return text
    }

    /// `library show --json`.
    static func showJSON(_ asset: Asset, resources: [LibraryAssetResource]) -> JSONElement {
        .object([("asset", json(asset)), ("resources", .array(resources.map(json)))])
    }

    /// `library show`.
    static func showText(_ asset: Asset, resources: [LibraryAssetResource]) -> String {
        var lines = [
            "identifier:          \(asset.localIdentifier)",
            "media type:          \(asset.mediaType)\(asset.mediaSubtypes.names.isEmpty ? "" : " (" + asset.mediaSubtypes.names.joined(separator: ", ") + ")")",
            "pixel size:          \(asset.pixelWidth)x\(asset.pixelHeight)",
            "duration:            \(String(format: "%.3f", asset.duration)) s",
            "creation date:       \(iso8601(asset.creationDate).stringValue ?? "-")",
            "content identifier:  \(asset.contentIdentifier.map(TerminalText.escaped) ?? "-")",
            "favorite:            \(asset.isFavorite ? "yes" : "no")",
            "hidden:              \(asset.isHidden ? "yes" : "no")",
        ]
        if let location = asset.location { lines.append("location:            \(location.latitude), \(location.longitude)") }
        if let owner = asset.owner { lines.append("owner:               \(TerminalText.escaped(owner))") }
        if let time = asset.stillImageTime { lines.append("still-image time:    \(String(format: "%.6f", time)) s") }
        if asset.hasAdjustments { lines.append("edited:              yes (render and adjustment data kept beside the original)") }
        if !asset.findings.isEmpty {
            lines.append("findings:")
            for finding in asset.findings {
                lines.append("  \(finding.severity.rawValue): \(finding.code): \(TerminalText.escaped(finding.message))")
            }
        }
        lines.append("resources:")
        for resource in resources {
            let name = resource.originalFilename.map { "\"" + TerminalText.path($0) + "\"" } ?? "-"
            lines.append(
                "  \(resource.type.rawValue)\t\(name)\t\(resource.uniformTypeIdentifier ?? "-")\t" + Wording.count(Int(resource.size), "byte")
                    + "\t\(resource.digest.hex)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The size of the file at `path`, nil when it cannot be read.
    private static func writtenSize(_ path: String) -> UInt64? {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.uint64Value
    }

    /// `library export --json`.
    static func exportJSON(_ asset: Asset, files: [(LibraryAssetResource, String)]) -> JSONElement {
        .object([
            ("asset", .string(asset.localIdentifier)),
            (
                "files",
                .array(
                    files.map { resource, path in
                        // The written file's size: a Live Photo exported for Photos is restamped.
                        .object([
                            ("type", .string(resource.type.rawValue)), ("path", .string(path)),
                            ("size", .integer(Int64(writtenSize(path) ?? resource.size))),
                        ])
                    })
            ),
        ])
    }

    /// `library delete --json`.
    static func deleteJSON(_ result: ChangeResult) -> JSONElement {
        .object([
            ("deleted", .array(result.deletedAssets.map(JSONElement.string))),
            ("changeSequence", result.changeSequence.map(JSONElement.integer) ?? .null),
        ])
    }
}
