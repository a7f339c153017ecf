import Foundation
import LivePairCLI
import LivePairFormats
import LivePairLibrary

extension LibraryCommand {
    /// `library pending`: the halves waiting for their partner at least `age` seconds, oldest first,
    /// then the edits' renders and `.AAE` files waiting for their original as long.
    static func pending(_ library: PhotoLibrary, olderThan age: Double, json: Bool, streams: OutputStreams) throws(LibraryError) -> ExitCode {
        let ingestor = Ingestor(library: library)
        let uploads = try ingestor.pendingUploads(olderThan: age)
        let now = Date()
        let editParts = try ingestor.waitingEditParts().filter { now.timeIntervalSince($0.receivedAt) >= age }
        if json {
            streams.print(
                PendingReport.pendingJSON(library: library.directory, uploads: uploads, editParts: editParts, now: now).rendered())
        } else {
            streams.print(PendingReport.pendingText(uploads, now: now), terminator: "")
            if !editParts.isEmpty { streams.print(PendingReport.editPartsText(editParts), terminator: "") }
        }
        return .success
    }

    /// `library settle`: imports the halves waiting at least `age` seconds on their own (the
    /// renders and adjustment data waiting for them join them), then the renders still waiting
    /// that long for an original that never came, as assets of their own.
    static func settle(_ library: PhotoLibrary, olderThan age: Double, json: Bool, streams: OutputStreams) throws(LibraryError) -> ExitCode {
        let ingestor = Ingestor(library: library)
        let uploads = try ingestor.pendingUploads(olderThan: age)
        let outcomes = try ingestor.importPendingAlone(uploads)
        let now = Date()
        let renders = try ingestor.waitingEditParts().filter { now.timeIntervalSince($0.receivedAt) >= age }
        let settled = Array(zip(uploads, outcomes)) + (try ingestor.importWaitingRendersAlone(renders))
        if json {
            streams.print(PendingReport.settleJSON(library: library.directory, settled: settled).rendered())
        } else {
            streams.print(PendingReport.settleText(settled), terminator: "")
        }
        return .success
    }
}

/// What `library pending` and `library settle` print (schema: docs/cli.md).
enum PendingReport {
    /// One pending half as JSON.
    static func json(_ upload: PendingUpload, now: Date) -> JSONElement {
        .object([
            ("owner", .string(upload.owner)),
            ("contentIdentifier", .string(upload.contentIdentifier)),
            ("type", .string(upload.type.rawValue)),
            ("originalFilename", .optional(upload.originalFilename)),
            ("uploadID", .optional(upload.uploadID)),
            ("size", .integer(Int64(upload.resource.size))),
            ("digest", .string(upload.resource.digest.hex)),
            ("receivedAt", LibraryReport.iso8601(upload.receivedAt)),
            ("ageSeconds", .integer(Int64(max(0, now.timeIntervalSince(upload.receivedAt))))),
        ])
    }

    /// `library pending --json`.
    static func pendingJSON(library: String, uploads: [PendingUpload], editParts: [PendingUpload], now: Date) -> JSONElement {
        .object([
            ("library", .string(library)), ("count", .integer(Int64(uploads.count))),
            ("pending", .array(uploads.map { json($0, now: now) })),
            ("editParts", .array(editParts.map { json($0, now: now) })),
        ])
    }

    /// `library pending`, the edits' parts: one line each (arrival, owner, type, group, name), then the count.
    static func editPartsText(_ parts: [PendingUpload]) -> String {
        var text = ""
        for part in parts {
            let name = part.originalFilename.map { String(reflecting: $0) } ?? "-"
            let arrived = LibraryReport.iso8601(part.receivedAt).stringValue ?? "-"
            text += [arrived, part.owner, part.type.rawValue, part.contentIdentifier, name].joined(separator: "\t") + "\n"
        }
        return text + "\(parts.count) edit \(parts.count == 1 ? "part" : "parts") waiting for the original\n"
    }

    /// `library pending`: one line per half (arrival, owner, type, content identifier, name), then the count.
    static func pendingText(_ uploads: [PendingUpload], now: Date) -> String {
        var text = ""
        for upload in uploads {
            let name = upload.originalFilename.map { String(reflecting: $0) } ?? "-"
            let arrived = LibraryReport.iso8601(upload.receivedAt).stringValue ?? "-"
            text += [arrived, upload.owner, upload.type.rawValue, upload.contentIdentifier, name].joined(separator: "\t") + "\n"
        }
        return text + "\(uploads.count) pending \(uploads.count == 1 ? "half" : "halves")\n"
    }

    /// `library settle --json`.
    static func settleJSON(library: String, settled: [(PendingUpload, IngestOutcome)]) -> JSONElement {
        .object([
            ("library", .string(library)), ("count", .integer(Int64(settled.count))),
            (
                "settled",
                .array(
                    settled.map { upload, outcome in
                        .object([
                            ("owner", .string(upload.owner)), ("contentIdentifier", .string(upload.contentIdentifier)),
                            ("type", .string(upload.type.rawValue)), ("originalFilename", .optional(upload.originalFilename)),
                            ("outcome", .string(outcome.kind)), ("asset", .optional(outcome.localIdentifier)),
                        ])
                    })
            ),
        ])
    }

    /// `library settle`: one line per half or render (outcome, asset, type, content identifier),
    /// then the counts.
    static func settleText(_ settled: [(PendingUpload, IngestOutcome)]) -> String {
        var text = ""
        for (upload, outcome) in settled {
            text += [outcome.kind, outcome.localIdentifier ?? "-", upload.type.rawValue, upload.contentIdentifier].joined(separator: "\t") + "\n"
        }
        let renders = settled.filter { $0.0.type.isEdit }.count
        let halves = settled.count - renders
        var summary = "\(halves) pending \(halves == 1 ? "half" : "halves") settled"
        if renders > 0 { summary += ", \(renders) \(renders == 1 ? "render" : "renders") without an original" }
        return text + summary + "\n"
    }
}
