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
        let samples = URL(fileURLWithPath: samples).resolvingSymlinksInPath().path
        let sources = (manager.enumerator(atPath: samples)?.allObjects as? [String] ?? [])
            .filter { path in
                let name = (path as NSString).lastPathComponent
                var isDirectory: ObjCBool = false
                let exists = manager.fileExists(atPath: samples + "/" + path, isDirectory: &isDirectory)
                return exists && !isDirectory.boolValue && !name.hasPrefix(".") && name != "README.md" && name != "manifest.tsv"
                    && name != "NOTICE" && !name.hasSuffix(".sh")
            }
            .sorted()
        guard !sources.isEmpty else { throw BenchmarkOptions.Invalid(description: "no media files under \(samples)") }
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
        for file in files { _ = try Data(contentsOf: URL(fileURLWithPath: file), options: .uncached).count }
        return BenchmarkCorpus(directory: directory, files: files, isTemporary: work == nil)
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
