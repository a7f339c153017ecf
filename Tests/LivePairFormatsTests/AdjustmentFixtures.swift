import Foundation

/// The committed fixtures of `Tests/Fixtures/adjustments` (made by its `make-fixtures.py` with
/// Python's zlib and plistlib).
enum AdjustmentFixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/adjustments")

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
    }
}
