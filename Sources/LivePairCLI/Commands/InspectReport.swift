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

    /// Writes the readable table into `buffer`: one row per file, then its errors indented below
    /// it, then a summary line.
    static func writeTable(_ identities: [ResourceIdentity], into buffer: inout OutputBuffer) {
        let header = ["PATH", "FORMAT", "ROLE", "CONTENT IDENTIFIER", "STILL", "SIZE", "ORIENT", "DURATION", "CODECS", "CAPTURED"]
        let rows = identities.map(cells)
        var widths = header.map(\.count)
        for row in rows {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        // Cells padded to their column's width (in characters) and two spaces apart; the last unpadded.
        func writeLine(_ cells: [String]) {
            for (column, cell) in cells.enumerated() {
                buffer.append(cell)
                if column < cells.count - 1 {
                    buffer.append(UInt8(ascii: " "), count: widths[column] - cell.count + 2)
                }
            }
            buffer.append(UInt8(ascii: "\n"))
        }
        writeLine(header)
        for (identity, row) in zip(identities, rows) {
            writeLine(row)
            if let motion = identity.motionPhoto {
                buffer.append("    motion photo (")
                buffer.append(shown: motion.vendor)
                buffer.append("): ")
                if let offset = motion.videoOffset {
                    buffer.append("video at ")
                    buffer.append(decimal: Int64(offset))
                    buffer.append(", ")
                    buffer.append(count: Int(motion.videoLength ?? 0), "byte")
                } else {
                    buffer.append("video missing")
                }
                if let timestamp = motion.presentationTimestampUs {
                    buffer.append(", still at ")
                    buffer.append(decimal: timestamp)
                    buffer.append(" us")
                }
                buffer.append(UInt8(ascii: "\n"))
            }
            for issue in identity.issues {
                buffer.append("    error[")
                buffer.append(issue.code)
                buffer.append("]: ")
                buffer.append(shown: issue.message)
                buffer.append(UInt8(ascii: "\n"))
            }
        }
        let failed = identities.filter { !$0.isComplete }.count
        var counts: [ResourceRole: Int] = [:]
        for identity in identities { counts[identity.role, default: 0] += 1 }
        buffer.append(count: identities.count, "file")
        var first = true
        for role in ResourceRole.allCases {
            guard let count = counts[role] else { continue }
            buffer.append(first ? ": " : ", ")
            first = false
            buffer.append(decimal: count)
            buffer.append(UInt8(ascii: " "))
            buffer.append(role.rawValue)
        }
        if failed > 0 {
            buffer.append("; ")
            buffer.append(decimal: failed)
            buffer.append(" could not be read completely")
        }
        buffer.append(UInt8(ascii: "\n"))
    }

    /// The table cells of one file, as shown (escaped for a terminal).
    private static func cells(_ identity: ResourceIdentity) -> [String] {
        let size = identity.width.flatMap { width in identity.height.map { "\(width)x\($0)" } } ?? "-"
        let codecs = [identity.videoCodec, identity.audioCodec].compactMap { $0 }.joined(separator: "+")
        return [
            TerminalText.path(identity.path), identity.format.rawValue, identity.role.rawValue,
            identity.contentIdentifier.map { TerminalText.escaped($0.rawValue) } ?? "-",
            identity.stillImageTime.map { format($0, digits: 3) + "s" } ?? "-",
            size, identity.orientation.map(String.init) ?? "-",
            identity.duration.map { format($0, digits: 3) + "s" } ?? "-",
            codecs.isEmpty ? "-" : TerminalText.escaped(codecs),
            identity.captureDate?.iso8601 ?? "-",
        ]
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
