import Foundation
import LivePair

/// How an asset's findings are kept in a catalog column: a JSON array of objects with `code`,
/// `severity`, `path`, `message` and `hint` (what was found at creation, kept as found even if the
/// rule catalog changes later). Shared by every catalog implementation.
enum AssetFindingsJSON {
    /// The column text for `findings`; nil for none.
    static func encode(_ findings: [Finding]) -> String? {
        guard !findings.isEmpty else { return nil }
        let objects = findings.map { finding in
            [
                "code": finding.code.rawValue, "severity": finding.severity.rawValue, "path": finding.path,
                "message": finding.message, "hint": finding.hint,
            ]
        }
        guard let data = try? JSONSerialization.data(withJSONObject: objects, options: [.sortedKeys]) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The findings in a column's text; empty for nil or text that is not such an array.
    static func decode(_ text: String?) -> [Finding] {
        guard let text, let objects = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: String]] else {
            return []
        }
        return objects.compactMap { object in
            guard let code = object["code"], let severity = object["severity"].flatMap(Severity.init(rawValue:)) else {
                return nil
            }
            return Finding(
                code: FindingCode(rawValue: code), severity: severity, path: object["path"] ?? "",
                message: object["message"] ?? "", hint: object["hint"] ?? "")
        }
    }
}
