import LivePairCore
import LivePairFormats

/// Renders a pairing result as the `pair` report and as JSON (schema version 1, docs/cli.md).
enum PairReport {
    /// The JSON object: `schemaVersion`, `pairs`, `motionPhotos`, `unpaired`, `ambiguous`, `duplicates`,
    /// `editGroups`.
    static func json(_ result: PairingResult) -> JSONElement {
        .object([
            ("schemaVersion", .integer(1)),
            ("pairs", .array(result.pairs.map(pairJSON))),
            ("motionPhotos", .array(result.motionPhotos.map { .string($0.path) })),
            ("unpaired", .array(result.unpaired.map { entry in
                .object([
                    ("path", .string(entry.resource.path)),
                    ("role", .string(entry.resource.role.rawValue)),
                    ("contentIdentifier", .optional(entry.resource.contentIdentifier?.rawValue)),
                    ("reason", .string(entry.reason.rawValue)),
                ])
            })),
            ("ambiguous", .array(result.ambiguous.map { match in
                .object([
                    ("contentIdentifier", .string(match.contentIdentifier.rawValue)),
                    ("photos", .array(match.photos.map(JSONElement.string))),
                    ("videos", .array(match.videos.map(JSONElement.string))),
                    ("chosen", match.chosen.map(pairJSON) ?? .null),
                    ("rule", .string(match.rule)),
                ])
            })),
            ("duplicates", .array(result.duplicates.map { group in
                .object([
                    ("original", .string(group.original)),
                    ("duplicates", .array(group.duplicates.map(JSONElement.string))),
                    ("kind", .string(group.kind.rawValue)),
                ])
            })),
            ("editGroups", .array(result.editGroups.map { group in
                .object([
                    ("folder", .string(group.folder)),
                    ("stem", .string(group.stem)),
                    ("originals", .array(group.originals.map(JSONElement.string))),
                    ("renders", .array(group.renders.map(JSONElement.string))),
                    ("adjustments", .array(group.adjustments.map(JSONElement.string))),
                ])
            })),
        ])
    }

    private static func pairJSON(_ pair: LivePhotoPair) -> JSONElement {
        .object([
            ("contentIdentifier", .optional(pair.contentIdentifier?.rawValue)),
            ("photo", .string(pair.photo.path)),
            ("video", .string(pair.video.path)),
            ("weak", .bool(pair.isWeak)),
        ])
    }

    /// Writes the readable report into `buffer`: one section per kind, then a summary line.
    static func writeText(_ result: PairingResult, into buffer: inout OutputBuffer) {
        // A section: its title and count, then one line per item, written by `writeItem`.
        func section<Item>(_ title: String, _ items: [Item], _ writeItem: (Item, inout OutputBuffer) -> Void) {
            guard !items.isEmpty else { return }
            buffer.append(title)
            buffer.append(" (")
            buffer.append(decimal: items.count)
            buffer.append("):\n")
            for item in items {
                buffer.append("  ")
                writeItem(item, &buffer)
                buffer.append(UInt8(ascii: "\n"))
            }
        }
        func writePaths(_ paths: [String], separator: String, into buffer: inout OutputBuffer) {
            for (index, path) in paths.enumerated() {
                if index > 0 { buffer.append(separator) }
                buffer.append(shown: path)
            }
        }
        section("Live Photos", result.pairs) { pair, buffer in
            buffer.append(pair.contentIdentifier?.rawValue ?? "(no identifier)")
            buffer.append("  ")
            buffer.append(shown: pair.photo.path)
            buffer.append(" + ")
            buffer.append(shown: pair.video.path)
            if pair.isWeak { buffer.append("  [weak: matched by name]") }
        }
        section("Motion photos", result.motionPhotos) { photo, buffer in buffer.append(shown: photo.path) }
        section("Ambiguous", result.ambiguous) { match, buffer in
            buffer.append(match.contentIdentifier.rawValue)
            buffer.append("  ")
            writePaths(match.photos + match.videos, separator: ", ", into: &buffer)
            buffer.append("  -> ")
            if let chosen = match.chosen {
                buffer.append("chose ")
                buffer.append(shown: chosen.photo.path)
                buffer.append(" + ")
                buffer.append(shown: chosen.video.path)
                buffer.append(" by ")
                buffer.append(match.rule)
            } else {
                buffer.append("no pair (")
                buffer.append(match.rule)
                buffer.append(")")
            }
        }
        section("Edits", result.editGroups) { group, buffer in
            for (index, (label, paths)) in [
                ("original", group.originals), ("render", group.renders), ("adjustments", group.adjustments),
            ].enumerated() {
                if index > 0 { buffer.append("; ") }
                buffer.append(label)
                buffer.append(": ")
                if paths.isEmpty { buffer.append("none") }
                writePaths(paths, separator: ", ", into: &buffer)
            }
        }
        section("Unpaired", result.unpaired) { entry, buffer in
            buffer.append(shown: entry.resource.path)
            buffer.append("  ")
            buffer.append(entry.resource.role.rawValue)
            if let identifier = entry.resource.contentIdentifier {
                buffer.append("  ")
                buffer.append(identifier.rawValue)
            }
            buffer.append("  ")
            buffer.append(entry.reason.rawValue)
        }
        section("Duplicates", result.duplicates) { group, buffer in
            writePaths(group.duplicates, separator: ", ", into: &buffer)
            buffer.append(" = ")
            buffer.append(shown: group.original)
            buffer.append("  (")
            buffer.append(group.kind.rawValue)
            buffer.append(")")
        }
        buffer.append(count: result.pairs.count, "Live Photo")
        buffer.append(" (")
        buffer.append(decimal: result.pairs.filter(\.isWeak).count)
        buffer.append(" weak), ")
        buffer.append(count: result.motionPhotos.count, "motion photo")
        buffer.append(", ")
        buffer.append(decimal: result.unpaired.count)
        buffer.append(" unpaired, ")
        buffer.append(decimal: result.ambiguous.count)
        buffer.append(" ambiguous, ")
        buffer.append(count: result.duplicates.count, "duplicate group")
        buffer.append(UInt8(ascii: "\n"))
    }
}
