import Foundation
import LivePair
import TestSupport

/// Shared helpers for the validation tests.
enum ValidationFixture {
    /// Validates the files at `paths` (identified, paired, validated) serially.
    /// Set `VALIDATION_DUMP=1` to print every report.
    static func report(_ paths: [String], deep: Bool = false) -> ValidationReport {
        let report = Validator(options: ValidationOptions(deep: deep, parallel: false)).validate(paths: paths)
        if ProcessInfo.processInfo.environment["VALIDATION_DUMP"] != nil { dump(report) }
        return report
    }

    /// Validates sample files given relative to `SampleMedia/`.
    static func report(samples: [String], deep: Bool = false) -> ValidationReport {
        report(samples.map(SampleMedia.path), deep: deep)
    }

    /// Every finding as "code severity file-name", in report order.
    static func summary(_ report: ValidationReport) -> [String] {
        report.allFindings.map { "\($0.code) \($0.severity) \(($0.path as NSString).lastPathComponent)" }
    }

    /// Prints a report (visible with `swift test`), for diagnosing a failing expectation.
    static func dump(_ report: ValidationReport) {
        for asset in report.assets {
            print("asset \(asset.kind) \(asset.photo ?? "-") + \(asset.video ?? "-") [\(asset.status)]")
            for finding in asset.findings { print("  \(finding.severity) \(finding.code): \(finding.message) | \(finding.hint)") }
        }
        for file in report.files {
            print("file \(file.path) \(file.role)")
            for finding in file.findings { print("  \(finding.severity) \(finding.code): \(finding.message) | \(finding.hint)") }
        }
    }
}
