import Foundation
import LivePairLibrary
import Synchronization
import TestSupport

/// The uploads of the multi-node tests, written once per test process into a temporary folder
/// (removed at exit): `LivePhotoCopies` of the sample pairs, a byte-identical copy (other name) of
/// every 25th movie, and what the catalog must hold afterwards (each identifier with the SHA-256
/// of its two halves).
final class MultiNodeCorpus: Sendable {
    let directory: String
    let pairs: [LivePhotoCopies.Pair]
    /// Pair index to the path of a byte-identical copy of its movie.
    let duplicates: [Int: String]
    /// Content identifier to the digests (hex) of its still and movie.
    let expected: [String: Set<String>]

    private static let toRemove = Mutex<[String]>([])

    init(pairs count: Int) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("livepair-nodes-\(UUID().uuidString)").path
        self.directory = directory
        Self.toRemove.withLock { list in
            if list.isEmpty { atexit { for path in MultiNodeCorpus.toRemove.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) } } }
            list.append(directory)
        }
        let digests = Mutex<[String: Set<String>]>([:])
        pairs = try LivePhotoCopies.write(count: count, into: directory) { pair, still, movie in
            let hexes = Set([still, movie].map { ContentDigest.of($0).hex })
            digests.withLock { $0[pair.contentIdentifier] = hexes }
        }
        var duplicates: [Int: String] = [:]
        try FileManager.default.createDirectory(atPath: directory + "/again", withIntermediateDirectories: true)
        for index in stride(from: 7, to: pairs.count, by: 25) {
            let copy = "\(directory)/again/\(index)-copy.mov"
            try FileManager.default.copyItem(atPath: pairs[index].movie, toPath: copy)
            duplicates[index] = copy
        }
        self.duplicates = duplicates
        expected = digests.withLock { $0 }
    }

    /// What the catalog must hold after the first `count` pairs.
    func expected(pairs count: Int) -> [String: Set<String>] {
        var result: [String: Set<String>] = [:]
        for pair in pairs.prefix(count) { result[pair.contentIdentifier] = expected[pair.contentIdentifier] }
        return result
    }
}
