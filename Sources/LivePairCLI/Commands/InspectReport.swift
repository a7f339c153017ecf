import LivePairCore
import LivePairFormats

/// Renders identities as the `inspect` table and as JSON objects (schema version 1, docs/cli.md).
enum InspectReport {
    /// One JSON object per file with the keys documented in docs/cli.md.
    static func json(_ identity: ResourceIdentity) -> JSONValue {
        var motion = JSONValue.null
        if let info = identity.motionPhoto {
            motion = .object([
                ("vendor", .string(info.vendor)),
                ("videoOffset", info.videoOffset.map { .integer(Int64($0)) } ?? .null),
                ("videoLength", info.videoLength.map { .integer(Int64($0)) } ?? .null),
                ("presentationTimestampUs", info.presentationTimestampUs.map(JSONValue.integer) ?? .null),
                ("locatedBy", .optional(info.locatedBy)),
            ])
        }
        return .object([
            ("path", .string(identity.path)),
            ("format", .string(identity.format.rawValue)),
            ("role", .string(identity.role.rawValue)),
            ("contentIdentifier", .optional(identity.contentIdentifier?.rawValue)),
            ("contentIdentifierLocation", .optional(identity.contentIdentifierLocation?.rawValue)),
            ("stillImageTime", .optional(identity.stillImageTime)),
            ("width", .optional(identity.width)),
            ("height", .optional(identity.height)),
            ("orientation", .optional(identity.orientation)),
            ("duration", .optional(identity.duration)),
            ("videoCodec", .optional(identity.videoCodec)),
            ("audioCodec", .optional(identity.audioCodec)),
            ("frameRate", .optional(identity.frameRate)),
            ("captureDate", .optional(identity.captureDate?.iso8601)),
            ("make", .optional(identity.make)),
            ("model", .optional(identity.model)),
            ("fileSize", .integer(Int64(identity.fileSize))),
            ("motionPhoto", motion),
            ("errors", .array(identity.issues.map { .object([("code", .string($0.code)), ("message", .string($0.message))]) })),
        ])
    }

    /// A readable table: one row per file, then its errors indented below it, then a summary line.
    static func table(_ identities: [ResourceIdentity]) -> String {
        let header = ["PATH", "FORMAT", "ROLE", "CONTENT IDENTIFIER", "STILL", "SIZE", "ORIENT", "DURATION", "CODECS", "CAPTURED"]
        var rows: [[String]] = []
        for identity in identities {
            let size = identity.width.flatMap { width in identity.height.map { "\(width)x\($0)" } } ?? "-"
            let codecs = [identity.videoCodec, identity.audioCodec].compactMap { $0 }.joined(separator: "+")
            rows.append([
                TerminalText.path(identity.path), identity.format.rawValue, identity.role.rawValue,
                identity.contentIdentifier.map { TerminalText.escaped($0.rawValue) } ?? "-",
                identity.stillImageTime.map { format($0, digits: 3) + "s" } ?? "-",
                size, identity.orientation.map(String.init) ?? "-",
                identity.duration.map { format($0, digits: 3) + "s" } ?? "-",
                codecs.isEmpty ? "-" : TerminalText.escaped(codecs),
                identity.captureDate?.iso8601 ?? "-",
            ])
        }
        var widths = header.map(\.count)
        for row in rows {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                column == cells.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ")
        }
        var text = line(header) + "\n"
        for (identity, row) in zip(identities, rows) {
            text += line(row) + "\n"
            if let motion = identity.motionPhoto {
                let range = motion.videoOffset.map { offset in "video at \(offset), " + Wording.count(Int(motion.videoLength ?? 0), "byte") }
                    ?? "video missing"
                text += "    motion photo (\(TerminalText.escaped(motion.vendor))): \(range)"
                text += motion.presentationTimestampUs.map { ", still at \($0) us" } ?? ""
                text += "\n"
            }
            for issue in identity.issues { text += "    error[\(issue.code)]: \(TerminalText.escaped(issue.message))\n" }
        }
        let failed = identities.filter { !$0.isComplete }.count
        var counts: [ResourceRole: Int] = [:]
        for identity in identities { counts[identity.role, default: 0] += 1 }
        let roles = ResourceRole.allCases.compactMap { role in counts[role].map { "\($0) \(role.rawValue)" } }
        text += Wording.count(identities.count, "file") + (roles.isEmpty ? "" : ": ") + roles.joined(separator: ", ")
        text += failed > 0 ? "; \(failed) could not be read completely\n" : "\n"
        return text
    }

    /// `value` with `digits` decimals.
    static func format(_ value: Double, digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        var text = String(rounded)
        if let dot = text.firstIndex(of: ".") {
            let decimals = text.distance(from: dot, to: text.endIndex) - 1
            if decimals < digits { text += String(repeating: "0", count: digits - decimals) }
        }
        return text
    }
}
