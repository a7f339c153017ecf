import LivePairCore
import LivePairFormats

/// Renders identities as the `inspect` table and as JSON objects (schema version 1, docs/cli.md).
enum InspectReport {
    /// One JSON object per file with the keys documented in docs/cli.md.
    static func json(_ identity: ResourceIdentity) -> JSONElement {
        var motion = JSONElement.null
        if let info = identity.motionPhoto {
            motion = .object([
                ("vendor", .string(info.vendor)),
                ("videoOffset", info.videoOffset.map { .integer(Int64($0)) } ?? .null),
                ("videoLength", info.videoLength.map { .integer(Int64($0)) } ?? .null),
                ("presentationTimestampUs", info.presentationTimestampUs.map(JSONElement.integer) ?? .null),
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

    /// The width the table fits unless `--wide`, in characters.
    static let width = 120

    /// Writes the readable table into `buffer`: one row per file, then its errors indented below
    /// it, then a summary line. Unless `wide`, every line fits `width` characters: the narrow
    /// columns (`narrowCells`), paths shortened in the middle, the lines below a row wrapped.
    static func writeTable(_ identities: [ResourceIdentity], wide: Bool = false, into buffer: inout OutputBuffer) {
        let header =
            wide
            ? ["PATH", "FORMAT", "ROLE", "CONTENT IDENTIFIER", "STILL", "SIZE", "ORIENT", "DURATION", "CODECS", "CAPTURED"]
            : ["PATH", "FORMAT", "ROLE", "IDENTIFIER", "SIZE", "DURATION", "CAPTURED"]
        var rows = identities.map(wide ? cells : narrowCells)
        var widths = header.map(\.count)
        for row in rows {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        if !wide {
            // The path column gets what the others leave of the width.
            let others = widths.dropFirst().reduce(0, +) + 2 * (widths.count - 1)
            widths[0] = min(widths[0], max(header[0].count, width - others))
            for index in rows.indices { rows[index][0] = shortened(rows[index][0], to: widths[0]) }
        }
        let detailWidth = wide ? Int.max : width
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
                var line = "motion photo (" + TerminalText.escaped(motion.vendor) + "): "
                if let offset = motion.videoOffset {
                    line += "video at \(offset), " + Wording.count(Int(motion.videoLength ?? 0), "byte")
                } else {
                    line += "video missing"
                }
                if let timestamp = motion.presentationTimestampUs { line += ", still at \(timestamp) us" }
                writeWrapped(line, width: detailWidth, indent: "    ", continuation: "      ", into: &buffer)
            }
            for issue in identity.issues {
                writeWrapped(
                    "error[" + issue.code + "]: " + TerminalText.escaped(issue.message), width: detailWidth, indent: "    ",
                    continuation: "      ", into: &buffer)
            }
        }
        let summaryStart = buffer.bytes.count
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
        if !wide {
            // The summary line too, wrapped under itself.
            let summary = String(decoding: buffer.removeBytes(from: summaryStart).dropLast(), as: UTF8.self)
            writeWrapped(summary, width: detailWidth, indent: "", continuation: "  ", into: &buffer)
        }
    }

    /// Writes `text` after `indent`, wrapped at spaces to `width` characters, continuation lines
    /// after `continuation` (a word longer than a line is cut).
    private static func writeWrapped(
        _ text: String, width: Int, indent: String, continuation: String, into buffer: inout OutputBuffer
    ) {
        var line = indent
        var lineHasWord = false
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            var word = Substring(word)
            while true {
                let needed = (lineHasWord ? 1 : 0) + word.count
                if line.count + needed <= width {
                    line += (lineHasWord ? " " : "") + word
                    lineHasWord = true
                    break
                }
                if lineHasWord {
                    buffer.append(line)
                    buffer.append(UInt8(ascii: "\n"))
                    line = continuation
                    lineHasWord = false
                    continue
                }
                // A word longer than a whole line: cut it.
                let room = width - line.count
                buffer.append(line + word.prefix(room))
                buffer.append(UInt8(ascii: "\n"))
                word = word.dropFirst(room)
                line = continuation
            }
        }
        buffer.append(line)
        buffer.append(UInt8(ascii: "\n"))
    }

    /// `path` cut to `width` characters, `…` in place of what is left out: in its folders when
    /// its file name fits (`SampleMedia/moti…/samsung-one-ui-6.heic`), else the folders left out
    /// and the name cut in its middle (`…/IllegalArgumentExc…er.processBoxes.heif`), so that the
    /// start and the end of every name stay.
    static func shortened(_ path: String, to width: Int) -> String {
        guard path.count > width, width >= 8 else { return path }
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        if name.count + 2 + 4 <= width {
            return String(path.prefix(width - 2 - name.count)) + "…/" + name
        }
        let room = width - 3
        let head = room / 2
        return "…/" + String(name.prefix(head)) + "…" + String(name.suffix(room - head))
    }

    /// The narrow table's cells of one file: the content identifier's first 8 characters (the
    /// whole one with `--wide` or `--json`), the capture date to the second without its offset.
    private static func narrowCells(_ identity: ResourceIdentity) -> [String] {
        let size = identity.width.flatMap { width in identity.height.map { "\(width)x\($0)" } } ?? "-"
        let captured = identity.captureDate.map { date in
            String(date.iso8601.prefix(19).map { $0 == "T" ? " " : $0 })
        }
        return [
            TerminalText.path(identity.path), identity.format.rawValue, identity.role.rawValue,
            identity.contentIdentifier.map { TerminalText.escaped(String($0.rawValue.prefix(8))) } ?? "-",
            size, identity.duration.map { format($0, digits: 3) + "s" } ?? "-",
            captured ?? "-",
        ]
    }

    /// The wide table's cells of one file, as shown (escaped for a terminal).
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
