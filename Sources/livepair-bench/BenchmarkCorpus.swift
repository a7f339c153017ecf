import Foundation

/// A directory of copies of the sample media, used as the input of a benchmark.
struct BenchmarkCorpus {
    /// The directory.
    let directory: URL
    /// Every file, in order.
    let files: [String]
    /// Whether the directory is removed when done.
    let isTemporary: Bool

    /// Copies the media files under `samples` (not README or manifest) round-robin until there are
    /// `count` files, then reads each once so that every file is in the page cache.
    static func make(from samples: String, count: Int, into work: String?) throws -> BenchmarkCorpus {
        let manager = FileManager.default
        let sources = try sampleFiles(under: samples).map { String($0.dropFirst(samplesRoot(samples).count + 1)) }
        let samples = samplesRoot(samples)
        let directory = URL(fileURLWithPath: work ?? NSTemporaryDirectory() + "livepair-bench-\(UUID().uuidString)")
        try manager.createDirectory(at: directory, withIntermediateDirectories: true)
        var files: [String] = []
        for index in 0..<count {
            let source = sources[index % sources.count]
            let name = "\(index / sources.count)-" + source.replacingOccurrences(of: "/", with: "_")
            let target = directory.appendingPathComponent(name).path
            if !manager.fileExists(atPath: target) {
                try manager.copyItem(atPath: samples + "/" + source, toPath: target)
            }
            files.append(target)
        }
        try warmPageCache(files)
        return BenchmarkCorpus(directory: directory, files: files, isTemporary: work == nil)
    }

    /// The resolved path of the samples directory.
    static func samplesRoot(_ samples: String) -> String { URL(fileURLWithPath: samples).resolvingSymlinksInPath().path }

    /// Every media file under `samples` (not the README, manifest, NOTICE or scripts), sorted, as full paths.
    static func sampleFiles(under samples: String) throws -> [String] {
        let manager = FileManager.default
        let root = samplesRoot(samples)
        let files = (manager.enumerator(atPath: root)?.allObjects as? [String] ?? [])
            .filter { path in
                let name = (path as NSString).lastPathComponent
                var isDirectory: ObjCBool = false
                let exists = manager.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory)
                return exists && !isDirectory.boolValue && !name.hasPrefix(".") && name != "README.md" && name != "manifest.tsv"
                    && name != "NOTICE" && !name.hasSuffix(".sh")
            }
            .sorted()
        guard !files.isEmpty else { throw BenchmarkOptions.Invalid(description: "no media files under \(samples)") }
        return files.map { root + "/" + $0 }
    }

    /// Reads every file once, 1 MiB at a time (so the benchmark's peak memory is not this step's),
    /// so that both tools find the files in the page cache.
    static func warmPageCache(_ files: [String]) throws {
        for file in files {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: file))
            defer { try? handle.close() }
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {}
        }
    }

    /// Removes the directory when it was temporary.
    func cleanUp() {
        if isTemporary { try? FileManager.default.removeItem(at: directory) }
    }

    /// Total size of the corpus in bytes.
    var totalBytes: UInt64 {
        files.reduce(0) { total, file in
            total + ((try? FileManager.default.attributesOfItem(atPath: file)[.size] as? UInt64) ?? 0)
        }
    }
}
