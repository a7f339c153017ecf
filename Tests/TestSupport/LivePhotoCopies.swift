import Dispatch
import Foundation
import LivePairFormats
import Synchronization

/// Copies of the real Live Photo pairs of `SampleMedia/live`, each copy with a fresh content
/// identifier patched into both halves in place (a UUID replaces a UUID, so no box moves and the
/// files stay as the camera wrote them otherwise): many distinct Live Photos, written fast, for the
/// multi-node tests. The pairs are the manifest's stills and movies that share an identifier.
public enum LivePhotoCopies {
    /// One copy: its identifier and the paths of its two halves.
    public struct Pair: Sendable, Hashable {
        /// The fresh content identifier both halves carry.
        public let contentIdentifier: String
        /// The still image.
        public let still: String
        /// The paired movie.
        public let movie: String
    }

    /// The manifest's complete pairs of camera originals: (identifier, still, movie), sorted by
    /// still. Edit renders (`IMG_E1234`, `IMG_1234_edited`) are left out: by their names they are
    /// the current version of an original, which ingestion keeps waiting for (docs/editing.md).
    public static func templates() -> [(identifier: String, still: String, movie: String)] {
        var halves: [String: (still: String?, movie: String?)] = [:]
        for entry in SampleMedia.manifest where entry.file.hasPrefix("live/") && !isEditRender(entry.file) {
            guard let identifier = entry.contentIdentifier else { continue }
            if entry.kind == "live-still" { halves[identifier, default: (nil, nil)].still = entry.file }
            if entry.kind == "live-movie" { halves[identifier, default: (nil, nil)].movie = entry.file }
        }
        return halves.compactMap { identifier, pair in
            guard let still = pair.still, let movie = pair.movie else { return nil }
            return (identifier, still, movie)
        }.sorted { $0.still < $1.still }
    }

    /// Whether `file` is named as Photos names an edit's render (`IMG_E1234.*`, `*_edited.*`).
    static func isEditRender(_ file: String) -> Bool {
        let name = (file as NSString).lastPathComponent
        let stem = (name as NSString).deletingPathExtension
        return name.hasPrefix("IMG_E") || stem.hasSuffix("_edited")
    }

    /// One template half: its bytes and where its identifier sits in them (found once).
    private struct TemplateFile {
        let name: String
        let bytes: [UInt8]
        let offsets: [Int]
    }

    /// Writes `count` copies into `directory` (32 subfolders, names `SERIAL-ORIGINAL`), cycling
    /// through the templates; identifiers come from `seed`, so a run can be repeated exactly. The
    /// copies are written concurrently; `written` (when given) gets each pair with the bytes of its
    /// still and movie as written, so a caller can hash them without reading them back.
    public static func write(
        count: Int, into directory: String, seed: UInt64 = 0x11FE,
        written: (@Sendable (Pair, _ still: [UInt8], _ movie: [UInt8]) -> Void)? = nil
    ) throws -> [Pair] {
        let sources = try templates().map { template in
            precondition(template.identifier.utf8.count == 36, "a template identifier that is not a UUID")
            return try [template.still, template.movie].map { file in
                let bytes = try SampleMedia.bytes(file)
                return TemplateFile(
                    name: (file as NSString).lastPathComponent, bytes: bytes,
                    offsets: ByteSearch.indices(of: Array(template.identifier.utf8), in: bytes[...]))
            }
        }
        guard !sources.isEmpty else { throw CocoaError(.fileNoSuchFile) }
        for folder in 0..<min(count, 32) {
            try FileManager.default.createDirectory(atPath: "\(directory)/\(folder)", withIntermediateDirectories: true)
        }
        var generator = SplitMix64(seed: seed)
        let pairs = (0..<count).map { serial in
            let fresh = freshIdentifier(&generator)
            let paths = sources[serial % sources.count].map { "\(directory)/\(serial % 32)/\(serial)-\($0.name)" }
            return Pair(contentIdentifier: fresh, still: paths[0], movie: paths[1])
        }
        let failure = Mutex<(any Error)?>(nil)
        DispatchQueue.concurrentPerform(iterations: count) { serial in
            let pair = pairs[serial]
            do {
                let halves = try zip(sources[serial % sources.count], [pair.still, pair.movie]).map { template, path in
                    let bytes = patched(template.bytes, at: template.offsets, with: pair.contentIdentifier)
                    try Data(bytes).write(to: URL(fileURLWithPath: path))
                    return bytes
                }
                written?(pair, halves[0], halves[1])
            } catch {
                failure.withLock { $0 = $0 ?? error }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        return pairs
    }

    /// An upper-case UUID string drawn from `generator`.
    private static func freshIdentifier(_ generator: inout SplitMix64) -> String {
        let hex = String(format: "%016llX%016llX", generator.next(), generator.next())
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }

    /// `bytes` with `identifier` written at each of `offsets` (where the template's identifier,
    /// of the same length, was).
    static func patched(_ bytes: [UInt8], at offsets: [Int], with identifier: String) -> [UInt8] {
        var result = bytes
        let new = Array(identifier.utf8)
        for offset in offsets { result.replaceSubrange(offset..<offset + new.count, with: new) }
        return result
    }
}
