import LivePairCore
import LivePairFormats

/// Renders a validation report as the `validate` report and as JSON (schema version 1, docs/cli.md).
package enum ValidateReport {
    /// The JSON object: `schemaVersion`, `assets`, `files` (those `report` shows), `summary` (of `all`).
    static func json(_ report: ValidationReport, all: ValidationReport) -> JSONElement {
        let counts = all.countsBySeverity
        return .object([
            ("schemaVersion", .integer(1)),
            ("assets", .array(report.assets.map { asset in
                .object([
                    ("kind", .string(asset.kind.rawValue)),
                    ("contentIdentifier", .optional(asset.contentIdentifier?.rawValue)),
                    ("photo", .optional(asset.photo)),
                    ("video", .optional(asset.video)),
                    ("status", .string(asset.status.rawValue)),
                    ("findings", .array(asset.findings.map(findingJSON))),
                ])
            })),
            ("files", .array(report.files.map { file in
                .object([
                    ("path", .string(file.path)),
                    ("role", .string(file.role.rawValue)),
                    ("findings", .array(file.findings.map(findingJSON))),
                ])
            })),
            ("summary", .object([
                ("assets", .integer(Int64(all.assets.count))),
                ("files", .integer(Int64(all.files.count))),
                ("error", .integer(Int64(counts[.error] ?? 0))),
                ("warning", .integer(Int64(counts[.warning] ?? 0))),
                ("info", .integer(Int64(counts[.info] ?? 0))),
            ])),
        ])
    }

    package static func findingJSON(_ finding: Finding) -> JSONElement {
        .object([
            ("code", .string(finding.code.rawValue)),
            ("severity", .string(finding.severity.rawValue)),
            ("path", .string(finding.path)),
            ("message", .string(finding.message)),
            ("hint", .string(finding.hint)),
        ])
    }

    /// Writes the readable report into `buffer`: assets with their findings, then other files
    /// with findings (those `report` shows), then a summary of `all`.
    static func writeText(_ report: ValidationReport, all: ValidationReport, into buffer: inout OutputBuffer) {
        let counts = all.countsBySeverity
        func writeFindings(_ findings: [Finding]) {
            for finding in findings {
                buffer.append("    ")
                buffer.append(finding.severity.rawValue.uppercased())
                buffer.append(" [")
                buffer.append(finding.code.rawValue)
                buffer.append("] ")
                buffer.append(shown: finding.path)
                buffer.append(": ")
                buffer.append(shown: finding.message)
                buffer.append("\n      fix: ")
                buffer.append(shown: finding.hint)
                buffer.append(UInt8(ascii: "\n"))
            }
        }
        for asset in report.assets {
            buffer.append(asset.status == .invalid ? "✗ " : asset.status == .warning ? "! " : "✓ ")
            buffer.append(asset.kind.rawValue)
            buffer.append("  ")
            if let identifier = asset.contentIdentifier {
                buffer.append(identifier.rawValue)
                buffer.append("  ")
            }
            if let photo = asset.photo { buffer.append(shown: photo) } else { buffer.append("(no photo)") }
            if asset.kind == .livePhoto {
                buffer.append(" + ")
                if let video = asset.video { buffer.append(shown: video) } else { buffer.append("(no video)") }
            }
            buffer.append("  ")
            buffer.append(asset.status.rawValue)
            buffer.append(UInt8(ascii: "\n"))
            writeFindings(asset.findings)
        }
        let filesWithFindings = report.files.filter { !$0.findings.isEmpty }
        if !filesWithFindings.isEmpty {
            buffer.append("Other files:\n")
            for file in filesWithFindings {
                buffer.append("  ")
                buffer.append(shown: file.path)
                buffer.append("  ")
                buffer.append(file.role.rawValue)
                buffer.append(UInt8(ascii: "\n"))
                writeFindings(file.findings)
            }
        }
        let statuses = all.assets.map(\.status)
        buffer.append(count: all.assets.count, "asset")
        buffer.append(" (")
        buffer.append(decimal: statuses.filter { $0 == .valid }.count)
        buffer.append(" valid, ")
        buffer.append(decimal: statuses.filter { $0 == .warning }.count)
        buffer.append(" with warnings, ")
        buffer.append(decimal: statuses.filter { $0 == .invalid }.count)
        buffer.append(" invalid), ")
        buffer.append(count: all.files.count, "other file")
        buffer.append("; ")
        buffer.append(count: counts[.error] ?? 0, "error")
        buffer.append(", ")
        buffer.append(count: counts[.warning] ?? 0, "warning")
        buffer.append(", ")
        buffer.append(decimal: counts[.info] ?? 0)
        buffer.append(" info\n")
    }
}
