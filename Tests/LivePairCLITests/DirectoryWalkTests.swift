import Foundation
import LivePairCLI
import Testing
import TestSupport

/// The folder walk behind `FileCollector` (readdir entry types, no stat per file).
@Suite("File collection: walking folders")
struct DirectoryWalkTests {
    @Test("nested regular files are found; hidden entries and symbolic links (to files or folders) are skipped")
    func walk() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("livepair-walk-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let manager = FileManager.default
        for folder in ["a/b/c", ".hidden", "empty"] {
            try manager.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        for file in ["top.jpg", "a/one.mov", "a/b/two.heic", "a/b/c/three.txt", ".dot.jpg", ".hidden/four.jpg"] {
            #expect(manager.createFile(atPath: root + "/" + file, contents: Data([1, 2, 3])))
        }
        try manager.createSymbolicLink(atPath: root + "/link.jpg", withDestinationPath: SampleMedia.path("live/train.jpg"))
        try manager.createSymbolicLink(atPath: root + "/a/folder-link", withDestinationPath: SampleMedia.path("motion"))
        let expected = ["a/b/c/three.txt", "a/b/two.heic", "a/one.mov", "top.jpg"]
        #expect(FileCollector.collect([root]).files == expected.map { root + "/" + $0 })
        #expect(FileCollector.collect([root + "/"]).files == expected.map { root + "/" + $0 })
        #expect(FileCollector.collect([root + "/a", root + "/a/one.mov"]).files
            == ["a/b/c/three.txt", "a/b/two.heic", "a/one.mov"].map { root + "/" + $0 })
    }
}
