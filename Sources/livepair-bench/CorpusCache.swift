import Foundation

/// Corpora kept between runs in the temporary folder: made once (writing thousands of distinct
/// Live Photos takes longer than the benchmark), reused while the manifest beside them lists
/// files that all exist with their sizes. A corpus is built under a scratch name and renamed
/// into place with its manifest, so an interrupted build is never reused.
enum CorpusCache {
    /// `pairs` distinct Live Photos (2 x `pairs` files, each pair with its own fresh identifier)
    /// made from the samples' Live Photos, from the cache when it holds them.
    static func livePhotos(from samples: String, pairs: Int) throws -> LivePairCorpus {
        let sampleFiles = try BenchmarkCorpus.sampleFiles(under: samples)
        // The samples' sizes name the cache, so that changed samples make a new corpus.
        let signature = try sampleFiles.reduce(into: UInt64(0xCBF2_9CE4_8422_2325)) { hash, path in
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? UInt64 ?? 0
            for byte in Array(path.utf8) + withUnsafeBytes(of: size.littleEndian, Array.init) {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            }
        }
        let directory = NSTemporaryDirectory() + "livepair-bench-cache/live-photos-\(pairs)-v1-"
            + String(signature, radix: 16)
        let manifest = directory + ".manifest"
        if let corpus = reuse(directory: directory, manifest: manifest, pairs: pairs) {
            try BenchmarkCorpus.warmPageCache(corpus.files)
            return corpus
        }
        let scratch = directory + ".partial-\(getpid())"
        try? FileManager.default.removeItem(atPath: scratch)
        try? FileManager.default.removeItem(atPath: directory)
        print("making \(pairs) distinct Live Photos in \(directory) (once; later runs reuse them)")
        let made = try LivePairCorpus.make(from: samples, count: 2 * pairs, into: scratch, livePhotosOnly: true)
        try FileManager.default.moveItem(atPath: scratch, toPath: directory)
        let files = made.files.map { directory + $0.dropFirst(scratch.count) }
        var lines = ["pairs \(made.pairCount)"]
        for file in files {
            let size = try FileManager.default.attributesOfItem(atPath: file)[.size] as? UInt64 ?? 0
            lines.append("\(size) \(file)")
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: manifest, atomically: true, encoding: .utf8)
        return LivePairCorpus(directory: URL(fileURLWithPath: directory), files: files, pairCount: made.pairCount, isTemporary: false)
    }

    /// The corpus the manifest describes, when every file it lists exists with its size.
    private static func reuse(directory: String, manifest: String, pairs: Int) -> LivePairCorpus? {
        guard let text = try? String(contentsOfFile: manifest, encoding: .utf8) else { return nil }
        var lines = text.split(separator: "\n")
        guard let first = lines.first, first.hasPrefix("pairs "), let count = Int(first.dropFirst(6)), count == pairs else {
            return nil
        }
        lines.removeFirst()
        var files: [String] = []
        for line in lines {
            guard let space = line.firstIndex(of: " "), let size = UInt64(line[..<space]) else { return nil }
            let file = String(line[line.index(after: space)...])
            guard (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? UInt64) == size else { return nil }
            files.append(file)
        }
        guard files.count == 2 * pairs else { return nil }
        return LivePairCorpus(directory: URL(fileURLWithPath: directory), files: files, pairCount: count, isTemporary: false)
    }
}
