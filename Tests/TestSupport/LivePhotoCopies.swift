import Foundation
import LivePairFormats

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

    /// The manifest's complete pairs: (identifier, still, movie), sorted by still.
    public static func templates() -> [(identifier: String, still: String, movie: String)] {
        var halves: [String: (still: String?, movie: String?)] = [:]
        for entry in SampleMedia.manifest where entry.file.hasPrefix("live/") {
            guard let identifier = entry.contentIdentifier else { continue }
            if entry.kind == "live-still" { halves[identifier, default: (nil, nil)].still = entry.file }
            if entry.kind == "live-movie" { halves[identifier, default: (nil, nil)].movie = entry.file }
        }
        return halves.compactMap { identifier, pair in
            guard let still = pair.still, let movie = pair.movie else { return nil }
            return (identifier, still, movie)
        }.sorted { $0.still < $1.still }
    }

    /// Writes `count` copies into `directory` (32 subfolders, names `SERIAL-ORIGINAL`), cycling
    /// through the templates; identifiers come from `seed`, so a run can be repeated exactly.
    public static func write(count: Int, into directory: String, seed: UInt64 = 0x11FE) throws -> [Pair] {
        let sources = try templates().map { template in
            (template.identifier, template.still, try SampleMedia.bytes(template.still), template.movie,
                try SampleMedia.bytes(template.movie))
        }
        guard !sources.isEmpty else { throw CocoaError(.fileNoSuchFile) }
        var generator = SplitMix64(seed: seed)
        var pairs: [Pair] = []
        pairs.reserveCapacity(count)
        for serial in 0..<count {
            let (identifier, still, stillBytes, movie, movieBytes) = sources[serial % sources.count]
            let fresh = freshIdentifier(&generator)
            let folder = "\(directory)/\(serial % 32)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            var paths: [String] = []
            for (name, bytes) in [(still, stillBytes), (movie, movieBytes)] {
                let path = "\(folder)/\(serial)-\((name as NSString).lastPathComponent)"
                try Data(replacing(identifier, with: fresh, in: bytes)).write(to: URL(fileURLWithPath: path))
                paths.append(path)
            }
            pairs.append(Pair(contentIdentifier: fresh, still: paths[0], movie: paths[1]))
        }
        return pairs
    }

    /// An upper-case UUID string drawn from `generator`.
    private static func freshIdentifier(_ generator: inout SplitMix64) -> String {
        let hex = String(format: "%016llX%016llX", generator.next(), generator.next())
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }

    /// `bytes` with every occurrence of `old` replaced by `new` (same length).
    static func replacing(_ old: String, with new: String, in bytes: [UInt8]) -> [UInt8] {
        let oldBytes = Array(old.utf8), newBytes = Array(new.utf8)
        precondition(oldBytes.count == newBytes.count, "identifiers of different lengths")
        var result = bytes
        for index in ByteSearch.indices(of: oldBytes, in: bytes[...]) {
            result.replaceSubrange(index..<index + newBytes.count, with: newBytes)
        }
        return result
    }
}
