import LivePairCore

/// Renders a pairing result as the `pair` report and as JSON (schema version 1, docs/cli.md).
enum PairReport {
    /// The JSON object: `schemaVersion`, `pairs`, `motionPhotos`, `unpaired`, `ambiguous`, `duplicates`.
    static func json(_ result: PairingResult) -> JSONValue {
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
                    ("photos", .array(match.photos.map(JSONValue.string))),
                    ("videos", .array(match.videos.map(JSONValue.string))),
                    ("chosen", match.chosen.map(pairJSON) ?? .null),
                    ("rule", .string(match.rule)),
                ])
            })),
            ("duplicates", .array(result.duplicates.map { group in
                .object([
                    ("original", .string(group.original)),
                    ("duplicates", .array(group.duplicates.map(JSONValue.string))),
                    ("kind", .string(group.kind.rawValue)),
                ])
            })),
        ])
    }

    private static func pairJSON(_ pair: LivePhotoPair) -> JSONValue {
        .object([
            ("contentIdentifier", .optional(pair.contentIdentifier?.rawValue)),
            ("photo", .string(pair.photo.path)),
            ("video", .string(pair.video.path)),
            ("weak", .bool(pair.isWeak)),
        ])
    }

    /// The readable report: one section per kind, then a summary line.
    static func text(_ result: PairingResult) -> String {
        var text = ""
        let show = TerminalText.path
        func section(_ title: String, _ lines: [String]) {
            guard !lines.isEmpty else { return }
            text += "\(title) (\(lines.count)):\n"
            for line in lines { text += "  \(line)\n" }
        }
        section("Live Photos", result.pairs.map { pair in
            let identifier = pair.contentIdentifier?.rawValue ?? "(no identifier)"
            return "\(identifier)  \(show(pair.photo.path)) + \(show(pair.video.path))" + (pair.isWeak ? "  [weak: matched by name]" : "")
        })
        section("Motion photos", result.motionPhotos.map { show($0.path) })
        section("Ambiguous", result.ambiguous.map { match in
            let chosen = match.chosen.map { "chose \(show($0.photo.path)) + \(show($0.video.path)) by \(match.rule)" } ?? "no pair (\(match.rule))"
            return "\(match.contentIdentifier.rawValue)  \((match.photos + match.videos).map(show).joined(separator: ", "))  -> \(chosen)"
        })
        section("Unpaired", result.unpaired.map { entry in
            let identifier = entry.resource.contentIdentifier.map { "  \($0.rawValue)" } ?? ""
            return "\(show(entry.resource.path))  \(entry.resource.role.rawValue)\(identifier)  \(entry.reason.rawValue)"
        })
        section("Duplicates", result.duplicates.map { group in
            "\(group.duplicates.map(show).joined(separator: ", ")) = \(show(group.original))  (\(group.kind.rawValue))"
        })
        text += Wording.count(result.pairs.count, "Live Photo") + " (\(result.pairs.filter(\.isWeak).count) weak), "
            + Wording.count(result.motionPhotos.count, "motion photo") + ", \(result.unpaired.count) unpaired, "
            + "\(result.ambiguous.count) ambiguous, " + Wording.count(result.duplicates.count, "duplicate group") + "\n"
        return text
    }
}
