import LivePairCore

/// Renders a validation report as the `validate` report and as JSON (schema version 1, docs/cli.md).
package enum ValidateReport {
    /// The JSON object: `schemaVersion`, `assets`, `files`, `summary`.
    static func json(_ report: ValidationReport, counts: [Severity: Int]) -> JSONValue {
        .object([
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
                ("assets", .integer(Int64(report.assets.count))),
                ("files", .integer(Int64(report.files.count))),
                ("error", .integer(Int64(counts[.error] ?? 0))),
                ("warning", .integer(Int64(counts[.warning] ?? 0))),
                ("info", .integer(Int64(counts[.info] ?? 0))),
            ])),
        ])
    }

    package static func findingJSON(_ finding: Finding) -> JSONValue {
        .object([
            ("code", .string(finding.code.rawValue)),
            ("severity", .string(finding.severity.rawValue)),
            ("path", .string(finding.path)),
            ("message", .string(finding.message)),
            ("hint", .string(finding.hint)),
        ])
    }

    /// The readable report: assets with their findings, then other files with findings, then a summary.
    static func text(_ report: ValidationReport, counts: [Severity: Int]) -> String {
        var text = ""
        func findingLines(_ findings: [Finding]) {
            for finding in findings {
                text += "    \(finding.severity.rawValue.uppercased()) [\(finding.code.rawValue)] \(TerminalText.path(finding.path)): "
                    + TerminalText.escaped(finding.message) + "\n"
                text += "      fix: \(TerminalText.escaped(finding.hint))\n"
            }
        }
        for asset in report.assets {
            let mark = asset.status == .invalid ? "✗" : asset.status == .warning ? "!" : "✓"
            let halves = [asset.photo.map(TerminalText.path) ?? "(no photo)", asset.kind == .livePhoto ? (asset.video.map(TerminalText.path) ?? "(no video)") : nil]
                .compactMap { $0 }.joined(separator: " + ")
            let identifier = asset.contentIdentifier.map { "\($0.rawValue)  " } ?? ""
            text += "\(mark) \(asset.kind.rawValue)  \(identifier)\(halves)  \(asset.status.rawValue)\n"
            findingLines(asset.findings)
        }
        let filesWithFindings = report.files.filter { !$0.findings.isEmpty }
        if !filesWithFindings.isEmpty {
            text += "Other files:\n"
            for file in filesWithFindings {
                text += "  \(TerminalText.path(file.path))  \(file.role.rawValue)\n"
                findingLines(file.findings)
            }
        }
        let statuses = report.assets.map(\.status)
        text += Wording.count(report.assets.count, "asset") + " (\(statuses.filter { $0 == .valid }.count) valid, "
            + "\(statuses.filter { $0 == .warning }.count) with warnings, \(statuses.filter { $0 == .invalid }.count) invalid), "
            + Wording.count(report.files.count, "other file") + "; " + Wording.count(counts[.error] ?? 0, "error") + ", "
            + Wording.count(counts[.warning] ?? 0, "warning") + ", \(counts[.info] ?? 0) info\n"
        return text
    }
}
