import Foundation
import LivePairCLI

/// `livepair-bench walk`: the folder walk of inspect, pair, validate and import (`FileCollector`:
/// readdir, one stat per entry, names as bytes) against a Foundation `FileManager` enumerator doing
/// the same job (the walk LivePair used before: regular files, hidden ones skipped), on a tree of
/// empty files, 200 per folder.
struct WalkBenchmark {
    let options: BenchmarkOptions

    /// Builds the tree, times both walks (best of `rounds`), prints them; returns the exit status.
    func run() throws -> Int32 {
        let root = options.work ?? NSTemporaryDirectory() + "livepair-walk-\(UUID().uuidString)"
        let manager = FileManager.default
        defer { if options.work == nil { try? manager.removeItem(atPath: root) } }
        for index in 0..<options.fileCount {
            let folder = root + "/folder-\(index / 200)"
            if index % 200 == 0 { try manager.createDirectory(atPath: folder, withIntermediateDirectories: true) }
            guard manager.createFile(atPath: folder + "/IMG_\(index).HEIC", contents: nil) else {
                throw BenchmarkOptions.Invalid(description: "cannot create files under \(root)")
            }
        }
        let ours = try best { FileCollector.collect([root]).files.count }
        let baseline = try best { Self.foundationWalk(root) }
        print("walk: \(options.fileCount) files in \((options.fileCount + 199) / 200) folders, best of \(options.rounds)")
        print(String(format: "  LivePair FileCollector (readdir) %9.1f ms", ours))
        print(String(format: "  FileManager enumerator (baseline) %8.1f ms", baseline))
        print(String(format: "  speedup %.1fx", baseline / ours))
        return 0
    }

    /// The best time of `rounds` runs of `body`, in milliseconds; each run must find every file.
    private func best(_ body: () -> Int) throws -> Double {
        var best = Double.infinity
        for _ in 0..<options.rounds {
            let start = DispatchTime.now().uptimeNanoseconds
            let found = body()
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            guard found == options.fileCount else {
                throw BenchmarkOptions.Invalid(description: "a walk found \(found) of \(options.fileCount) files")
            }
        }
        return best
    }

    /// The regular files under `root` by `FileManager`'s enumerator, sorted.
    private static func foundationWalk(_ root: String) -> Int {
        let base = URL(fileURLWithPath: root).resolvingSymlinksInPath()
        guard
            let walker = FileManager.default.enumerator(
                at: base, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else { return 0 }
        var files: Set<String> = []
        for case let url as URL in walker
        where (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
            files.insert(url.standardizedFileURL.path)
        }
        return files.sorted().count
    }
}
