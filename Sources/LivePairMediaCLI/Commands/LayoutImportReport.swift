import LivePair
import LivePairCLI
import LivePairFormats
import LivePairLibrary

/// What `livepair import` did with an export read through its layout, as text or JSON: every
/// file's end (media with the library's answer, consumed sidecar, album metadata, or ignored with
/// its reason) and a summary (docs/cli.md, "import").
struct LayoutImportReport {
    var library: String
    var owner: String
    var layout: ExportLayout
    var plan: TakeoutPlan
    var files: [LayoutImport.FileResult]
    var datesApplied: Int
    var albumsMade: Int
    /// The library's assets the media files went into.
    var assets: [Asset]
    /// Metadata or albums that could not be applied (the exit status is then 1).
    var problems: [String] = []
    /// The assets ingested while the export's parts were still being read (`EarlyLayoutIngestion`).
    var ingestedWhileReading = 0

    private var media: [LayoutImport.FileResult] { files.filter { $0.file.disposition == .media } }
    private func count(_ kind: String) -> Int { media.filter { $0.outcome?.kind == kind && !isSkipped($0) }.count }
    private func isSkipped(_ file: LayoutImport.FileResult) -> Bool {
        guard case let .rejected(findings) = file.outcome else { return false }
        return !findings.isEmpty && findings.allSatisfy { $0.code == .notMedia }
    }
    /// Media files refused by the library (with findings), or that failed.
    var rejected: Int { count("rejected") }
    /// Media files that failed with an error.
    var errors: Int { media.filter { $0.error != nil }.count }

    /// The ignored files' reasons and how many had each, sorted by reason.
    private var ignoredReasons: [(String, Int)] {
        var counts: [String: Int] = [:]
        for file in files where file.file.disposition == .ignored { counts[file.file.reason ?? "unknown", default: 0] += 1 }
        for file in media where isSkipped(file) { counts["not-media", default: 0] += 1 }
        return counts.sorted { $0.key < $1.key }
    }

    private var summary: [(String, Int)] {
        let dispositions = files.map(\.file.disposition)
        return [
            ("files", files.count), ("media", media.count - media.filter(isSkipped).count), ("imported", count("accepted")),
            ("duplicates", count("duplicate")), ("pending", count("pending")), ("rejected", rejected), ("errors", errors),
            ("sidecars", dispositions.filter { $0 == .sidecar }.count),
            ("albumMetadata", dispositions.filter { $0 == .albumMetadata }.count),
            ("ignored", dispositions.filter { $0 == .ignored }.count + media.filter(isSkipped).count),
            ("assets", assets.count), ("livePhotos", assets.filter { $0.isLivePhoto && $0.contentIdentifier != nil }.count),
            ("motionPhotos", assets.filter { $0.isLivePhoto && $0.contentIdentifier == nil }.count),
            ("edits", editedAssets), ("albums", albumsMade),
            ("sidecarDatesApplied", datesApplied), ("ingestedWhileReading", ingestedWhileReading),
        ]
    }

    /// Assets with an edit: adjustment data, or a render the layout named (Takeout's `-edited`).
    private var editedAssets: Int {
        let renders = Set(plan.assets.compactMap(\.render))
        let rendered = Set(files.filter { renders.contains($0.file.path) }.compactMap { $0.outcome?.localIdentifier })
        return assets.filter { $0.hasAdjustments || rendered.contains($0.localIdentifier) }.count
    }

    /// The text: one line per file that was not taken or needs attention, then the counts.
    func text() -> String {
        var lines = ["layout: \(layout.rawValue)"]
        for file in files {
            let path = TerminalText.path(file.file.location)
            if let error = file.error {
                lines.append("error     \(path): \(TerminalText.escaped(error))")
            } else if isSkipped(file) {
                lines.append("ignored   \(path) (not-media)")
            } else if file.file.disposition == .ignored {
                lines.append("ignored   \(path) (\(TerminalText.escaped(file.file.reason ?? "unknown")))")
            } else if case let .rejected(findings) = file.outcome {
                lines.append("rejected  \(path)")
                for finding in findings {
                    lines.append("  \(finding.severity.rawValue): \(finding.code): \(TerminalText.escaped(finding.message))")
                }
            } else if case .pending = file.outcome {
                lines.append("pending   \(path) (waiting for its partner)")
            }
        }
        for problem in problems { lines.append("error     \(TerminalText.escaped(problem))") }
        for album in plan.albums {
            lines.append("album     \(TerminalText.escaped(album.title)): \(album.members.count) asset\(album.members.count == 1 ? "" : "s")")
        }
        let values = Dictionary(uniqueKeysWithValues: summary)
        lines.append(
            "\(values["files"] ?? 0) files: \(values["media"] ?? 0) media (\(values["imported"] ?? 0) imported, "
                + "\(values["duplicates"] ?? 0) duplicates, \(values["pending"] ?? 0) pending, \(rejected) rejected, \(errors) failed), "
                + "\(values["sidecars"] ?? 0) sidecars, \(values["albumMetadata"] ?? 0) album metadata, \(values["ignored"] ?? 0) ignored")
        lines.append(
            "\(values["assets"] ?? 0) assets: \(values["livePhotos"] ?? 0) Live Photos, \(values["motionPhotos"] ?? 0) motion photos, "
                + "\(values["edits"] ?? 0) edits; \(albumsMade) albums; \(datesApplied) dated by their sidecar")
        if !ignoredReasons.isEmpty {
            lines.append("ignored: " + ignoredReasons.map { "\($0.1) \($0.0)" }.joined(separator: ", "))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The JSON object (schema in docs/cli.md).
    func json() -> JSONElement {
        var summaryFields = summary.map { ($0.0, JSONElement.integer(Int64($0.1))) }
        summaryFields.append(("ignoredReasons", .object(ignoredReasons.map { ($0.0, .integer(Int64($0.1))) })))
        return .object([
            ("library", .string(library)), ("owner", .string(owner)), ("layout", .string(layout.rawValue)),
            ("summary", .object(summaryFields)), ("problems", .array(problems.map(JSONElement.string))),
            ("files", .array(files.map(json))),
            (
                "albums",
                .array(plan.albums.map { .object([("title", .string($0.title)), ("count", .integer(Int64($0.members.count)))]) })
            ),
        ])
    }

    private func json(_ file: LayoutImport.FileResult) -> JSONElement {
        var fields: [(String, JSONElement)] = [
            ("path", .string(file.file.path)), ("location", .string(file.file.location)),
            ("disposition", .string(isSkipped(file) ? "ignored" : file.file.disposition.rawValue)),
        ]
        if let outcome = file.outcome, !isSkipped(file) { fields.append(("outcome", .string(outcome.kind))) }
        if let error = file.error { fields.append(("outcome", .string("error"))); fields.append(("error", .string(error))) }
        if let asset = file.assetIdentifier { fields.append(("asset", .string(asset))) }
        if let album = file.file.album { fields.append(("album", .string(album))) }
        if isSkipped(file) {
            fields.append(("reason", .string("not-media")))
        } else if let reason = file.file.reason {
            fields.append(("reason", .string(reason)))
        }
        if case let .rejected(findings) = file.outcome, !isSkipped(file) {
            fields.append(("findings", .array(findings.map { .object([("code", .string($0.code.rawValue)), ("message", .string($0.message))]) })))
        }
        return .object(fields)
    }
}
