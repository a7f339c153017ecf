import LivePairCore
import LivePairFormats

/// Renders a Takeout plan as `pair --layout takeout`'s report, text and JSON (docs/cli.md).
enum TakeoutReport {
    /// The summary counts, in report order.
    static func summary(_ plan: TakeoutPlan) -> [(String, Int)] {
        let byDisposition = Dictionary(grouping: plan.files, by: \.disposition).mapValues(\.count)
        return [
            ("files", plan.files.count),
            ("assets", plan.assets.count),
            ("livePhotos", plan.assets.count { $0.kind == .livePhoto }),
            ("pairedByStemAndTime", plan.assets.count { $0.pairedBy == .stemAndTime }),
            ("motionPhotos", plan.assets.count { $0.kind == .motionPhoto }),
            ("photos", plan.assets.count { $0.kind == .photo }),
            ("videos", plan.assets.count { $0.kind == .video }),
            ("edits", plan.assets.count { $0.render != nil }),
            ("albums", plan.albums.count),
            ("sidecars", byDisposition[.sidecar] ?? 0),
            ("sidecarDates", plan.assets.count { $0.creationDateSource == .sidecar }),
            ("ignored", byDisposition[.ignored] ?? 0),
        ]
    }

    /// The JSON object: `schemaVersion`, `layout`, `assets`, `albums`, `files`, `summary`.
    static func json(_ plan: TakeoutPlan, layout: ExportLayout = .takeout) -> JSONElement {
        .object([
            ("schemaVersion", .integer(1)),
            ("layout", .string(layout.rawValue)),
            ("assets", .array(plan.assets.map(assetJSON))),
            ("albums", .array(plan.albums.map { album in
                .object([
                    ("title", .string(album.title)), ("folder", .string(album.folder)),
                    ("members", .array(album.members.map(JSONElement.string))),
                ])
            })),
            ("files", .array(plan.files.map { file in
                .object([
                    ("path", .string(file.path)), ("location", .string(file.location)),
                    ("disposition", .string(file.disposition.rawValue)), ("asset", .optional(file.asset)),
                    ("album", .optional(file.album)), ("reason", .optional(file.reason)),
                ])
            })),
            ("summary", .object(summary(plan).map { ($0.0, .integer(Int64($0.1))) })),
        ])
    }

    private static func assetJSON(_ asset: TakeoutAsset) -> JSONElement {
        .object([
            ("kind", .string(asset.kind.rawValue)),
            ("photo", .optional(asset.photo)),
            ("video", .optional(asset.video)),
            ("render", .optional(asset.render)),
            ("pairedBy", .optional(asset.pairedBy?.rawValue)),
            ("contentIdentifier", .optional(asset.contentIdentifier?.rawValue)),
            ("sidecar", .optional(asset.sidecar)),
            ("sidecarRule", .optional(asset.sidecarRule?.rawValue)),
            ("creationDate", .optional(asset.creationDate?.iso8601)),
            ("creationDateSource", .optional(asset.creationDateSource?.rawValue)),
            ("location", asset.location.map { .object([("latitude", .number($0.latitude)), ("longitude", .number($0.longitude))]) } ?? .null),
            ("favorite", .bool(asset.isFavorite)),
            ("hidden", .bool(asset.isHidden)),
            ("caption", .optional(asset.caption)),
            ("albums", .array(asset.albums.map(JSONElement.string))),
        ])
    }

    /// A section heading of the text report: `Title (N):`.
    private static func appendHeading(_ title: String, count: Int, into buffer: inout OutputBuffer) {
        buffer.append(title + " (")
        buffer.append(decimal: count)
        buffer.append("):\n")
    }

    /// The text report: assets, albums, ignored files, then a summary line.
    static func writeText(_ plan: TakeoutPlan, into buffer: inout OutputBuffer) {
        if !plan.assets.isEmpty {
            appendHeading("Assets", count: plan.assets.count, into: &buffer)
        }
        for asset in plan.assets {
            buffer.append("  ")
            buffer.append(asset.kind.rawValue)
            buffer.append("  ")
            buffer.append(shown: [asset.photo, asset.video].compactMap { $0 }.joined(separator: " + "))
            if let pairedBy = asset.pairedBy { buffer.append("  [paired by \(pairedBy.rawValue)]") }
            if let render = asset.render {
                buffer.append("  edited: ")
                buffer.append(shown: render)
            }
            buffer.append("\n    ")
            var facts: [String] = []
            if let date = asset.creationDate, let source = asset.creationDateSource {
                facts.append("date \(date.iso8601) (\(source.rawValue))")
            }
            if let location = asset.location { facts.append("location \(location.latitude),\(location.longitude)") }
            if asset.isFavorite { facts.append("favourite") }
            if asset.isHidden { facts.append("hidden") }
            if let caption = asset.caption { facts.append("caption \"\(caption)\"") }
            if !asset.albums.isEmpty { facts.append("albums: " + asset.albums.joined(separator: ", ")) }
            if let sidecar = asset.sidecar, let rule = asset.sidecarRule {
                facts.append("sidecar \(TerminalText.path(Self.name(sidecar))) (\(rule.rawValue))")
            } else {
                facts.append("no sidecar")
            }
            buffer.append(shown: facts.joined(separator: "; "))
            buffer.append("\n")
        }
        if !plan.albums.isEmpty {
            appendHeading("Albums", count: plan.albums.count, into: &buffer)
            for album in plan.albums {
                buffer.append("  ")
                buffer.append(shown: album.title)
                buffer.append(" (")
                buffer.append(count: album.members.count, "asset")
                buffer.append(")  ")
                buffer.append(shown: album.folder)
                buffer.append("\n")
            }
        }
        let ignored = plan.files.filter { $0.disposition == .ignored }
        if !ignored.isEmpty {
            appendHeading("Ignored", count: ignored.count, into: &buffer)
            for file in ignored {
                buffer.append("  ")
                buffer.append(file.reason ?? "")
                buffer.append("  ")
                buffer.append(shown: file.location)
                if let asset = file.asset {
                    buffer.append(" (of ")
                    buffer.append(shown: asset)
                    buffer.append(")")
                }
                buffer.append("\n")
            }
        }
        buffer.append(summary(plan).map { "\($0.1) \($0.0)" }.joined(separator: ", "))
        buffer.append("\n")
    }

    private static func name(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
