import LivePair
import LivePairCLI
import LivePairFormats
import LivePairLibrary

/// What `livepair import` did, as text or JSON.
struct ImportReport {
    /// One file's outcome, or the error that stopped it.
    struct FileResult: Sendable {
        var path: String
        var outcome: IngestOutcome?
        var error: String?
        /// For an accepted or duplicate file: what its asset keeps flagged about it.
        var findings: [Finding] = []

        /// True for a file refused only because it is not a photo or movie (skipped, not an error).
        var isNotMedia: Bool {
            guard case let .rejected(findings) = outcome else { return false }
            return !findings.isEmpty && findings.allSatisfy { $0.code == .notMedia }
        }
    }

    var library: String
    var owner: String
    var files: [FileResult]

    private func count(_ kind: String) -> Int { files.filter { $0.outcome?.kind == kind }.count }
    /// Files that made a new asset.
    var imported: Int { count("accepted") }
    /// Files already in the library.
    var duplicates: Int { count("duplicate") }
    /// Halves waiting for their partner.
    var pending: Int { count("pending") }
    /// Files refused, with findings (not counting skipped ones).
    var rejected: Int { files.filter { $0.outcome?.kind == "rejected" && !$0.isNotMedia }.count }
    /// Files skipped because they are not photos or movies (`not-media`).
    var skipped: Int { files.filter(\.isNotMedia).count }
    /// Accepted or duplicate files whose asset keeps findings about them.
    var flagged: Int { files.filter { !$0.findings.isEmpty }.count }
    /// Files that failed with an error.
    var errors: Int { files.filter { $0.error != nil }.count }

    /// The human-readable summary: one line per file that needs attention, then the counts.
    func text() -> String {
        var lines: [String] = []
        for file in files {
            if let error = file.error {
                lines.append("error     \(TerminalText.path(file.path)): \(TerminalText.escaped(error))")
                continue
            }
            if file.isNotMedia {
                lines.append("skipped   \(TerminalText.path(file.path)) (not a photo or movie)")
                continue
            }
            if !file.findings.isEmpty {
                lines.append("flagged   \(TerminalText.path(file.path)) (\(file.outcome?.kind ?? "accepted"), kept with findings)")
                appendFindings(file.findings, to: &lines)
                continue
            }
            switch file.outcome {
            case let .pending(identifier):
                if identifier.hasPrefix("edit:") {
                    let stem = TerminalText.escaped(String(identifier.dropFirst(5)))
                    lines.append("pending   \(TerminalText.path(file.path)) (an edit waiting for its original, \(stem))")
                } else {
                    lines.append("pending   \(TerminalText.path(file.path)) (waiting for its partner, content identifier \(identifier))")
                }
            case let .rejected(findings):
                lines.append("rejected  \(TerminalText.path(file.path))")
                appendFindings(findings, to: &lines)
            default:
                break
            }
        }
        lines.append(
            "\(files.count) file\(files.count == 1 ? "" : "s"): \(imported) imported, \(duplicates) duplicate\(duplicates == 1 ? "" : "s"), "
                + "\(pending) pending, \(rejected) rejected" + (skipped > 0 ? ", \(skipped) skipped (not media)" : "")
                + (errors > 0 ? ", \(errors) failed" : "") + (flagged > 0 ? "; \(flagged) flagged" : ""))
        return lines.joined(separator: "\n") + "\n"
    }

    private func appendFindings(_ findings: [Finding], to lines: inout [String]) {
        for finding in findings {
            lines.append("  \(finding.severity.rawValue): \(finding.code): \(TerminalText.escaped(finding.message))")
            if !finding.hint.isEmpty { lines.append("    hint: \(TerminalText.escaped(finding.hint))") }
        }
    }

    /// The JSON object (schema in docs/cli.md).
    func json() -> JSONElement {
        .object([
            ("library", .string(library)),
            ("owner", .string(owner)),
            (
                "summary",
                .object([
                    ("files", .integer(Int64(files.count))), ("imported", .integer(Int64(imported))),
                    ("duplicates", .integer(Int64(duplicates))), ("pending", .integer(Int64(pending))),
                    ("rejected", .integer(Int64(rejected))), ("skipped", .integer(Int64(skipped))),
                    ("flagged", .integer(Int64(flagged))), ("errors", .integer(Int64(errors))),
                ])
            ),
            ("files", .array(files.map(Self.json))),
        ])
    }

    /// One file's object as one compact line (`--json-lines`): the same fields as an entry of `files`.
    static func lineJSON(_ file: FileResult) -> [UInt8] {
        json(file).renderedBytes(indent: nil) + [UInt8(ascii: "\n")]
    }

    private static func json(_ file: FileResult) -> JSONElement {
        var fields: [(String, JSONElement)] = [("path", .string(file.path))]
        if let error = file.error {
            fields += [("outcome", .string("error")), ("error", .string(error))]
            return .object(fields)
        }
        guard let outcome = file.outcome else { return .object(fields) }
        fields.append(("outcome", .string(file.isNotMedia ? "skipped" : outcome.kind)))
        switch outcome {
        case let .accepted(identifier), let .duplicate(identifier):
            fields.append(("asset", .string(identifier)))
            fields.append(("findings", .array(file.findings.map(findingJSON))))
        case let .pending(identifier):
            fields.append(("contentIdentifier", .string(identifier)))
        case let .rejected(findings):
            fields.append(("findings", .array(findings.map(findingJSON))))
        }
        return .object(fields)
    }

    private static func findingJSON(_ finding: Finding) -> JSONElement {
        .object([
            ("code", .string(finding.code.rawValue)), ("severity", .string(finding.severity.rawValue)),
            ("message", .string(finding.message)), ("hint", .string(finding.hint)),
        ])
    }
}
