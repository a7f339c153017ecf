import Foundation

/// Locates the project's `SampleMedia/` folder and reads its ground-truth manifest.
public enum SampleMedia {
    /// The `SampleMedia/` directory at the package root.
    public static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            let candidate = url.appendingPathComponent("SampleMedia")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("manifest.tsv").path) {
                return candidate
            }
        }
        fatalError("SampleMedia/manifest.tsv not found above \(#filePath)")
    }()

    /// The path of a sample, relative to `SampleMedia/` (for example `"live/IMG_3582.HEIC"`).
    public static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// The bytes of a sample.
    public static func bytes(_ relative: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: root.appendingPathComponent(relative)))
    }

    /// One row of `manifest.tsv`.
    public struct Entry: Sendable {
        /// Path relative to `SampleMedia/`.
        public let file: String
        /// `live-still`, `live-movie`, `motion-photo-google`, `motion-photo-samsung`, `plain-heic`, `plain-mov`, `other`.
        public let kind: String
        /// The content identifier, or nil for `-`.
        public let contentIdentifier: String?
        /// Still-image time in seconds, or nil.
        public let stillImageTime: Double?
        /// Stored width and height, or nil.
        public let dimensions: (width: Int, height: Int)?
        /// The codec column as written.
        public let codec: String
        /// Duration in seconds, or nil.
        public let duration: Double?
        /// The sha256 column.
        public let sha256: String
    }

    /// Every row of the manifest.
    public static let manifest: [Entry] = {
        guard let text = try? String(contentsOf: root.appendingPathComponent("manifest.tsv"), encoding: .utf8) else {
            return []
        }
        var entries: [Entry] = []
        for line in text.split(separator: "\n").dropFirst() {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count >= 12 else { continue }
            func optional(_ text: String) -> String? { text == "-" || text.isEmpty ? nil : text }
            var dimensions: (Int, Int)?
            let parts = columns[4].split(separator: "x")
            if parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) { dimensions = (width, height) }
            entries.append(
                Entry(
                    file: columns[0], kind: columns[1], contentIdentifier: optional(columns[2]),
                    stillImageTime: optional(columns[3]).flatMap(Double.init), dimensions: dimensions,
                    codec: columns[5], duration: optional(columns[6]).flatMap(Double.init), sha256: columns[11]))
        }
        return entries
    }()

    /// The manifest row for `file`.
    public static func entry(_ file: String) -> Entry? { manifest.first { $0.file == file } }
}
