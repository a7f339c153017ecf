import Foundation
import LivePair
import LivePairFormats
import Synchronization
import TestSupport
import Testing

/// Helpers shared by the pairing tests: identification of samples, temporary folders with renamed
/// copies, the exactly-once invariant, a content source that counts reads, a seeded generator.
enum PairingFixtures {
    /// The resource for a sample, by its path relative to `SampleMedia/`.
    static func sample(_ relative: String) -> AssetResource {
        AssetResource(ResourceIdentifier().identify(path: SampleMedia.path(relative)))
    }

    /// The resource for a file anywhere.
    static func resource(at path: String) -> AssetResource {
        AssetResource(ResourceIdentifier().identify(path: path))
    }

    /// Every sample in the manifest.
    static var allSamples: [AssetResource] { SampleMedia.manifest.map { sample($0.file) } }

    /// The five real pairs: (still, movie, identifier), relative to `SampleMedia/`.
    static let realPairs: [(still: String, movie: String, identifier: String)] = [
        ("live/51F2BEF7-431A-4D31-8AC1-3284A57826AE.jpeg", "live/51F2BEF7-431A-4D31-8AC1-3284A57826AE_3.mov",
         "C3754624-A05F-474D-9F16-E9C47B5F892D"),
        ("live/IMG_3582.HEIC", "live/IMG_3582.mov", "602FEBB7-6B59-4799-96E6-9C8484D873C7"),
        ("live/IMG_3582_edited.heic", "live/IMG_3582_edited.mov", "87D06EAA-DAEF-4498-ABC5-27FE5C8CE710"),
        ("live/IMG_4580.HEIC", "live/IMG_4580.mov", "4E1A1B89-CE70-4FF8-873B-E4470B839314"),
        ("live/train.jpg", "live/train.mov", "E905E6C6-C747-4805-942F-9904A0281F02"),
    ]

    /// The identifier IMG_2927.HEIC and exif-at-eof.heic share.
    static let sharedStillIdentifier = "1745E022-9712-43C7-B024-F308EC6413CB"

    /// The bytes of a sample movie with every occurrence of its identifier replaced by `identifier`
    /// (same length, so the movie stays valid): a Live Photo movie for any still.
    static func movieBytes(_ relative: String, withIdentifier identifier: String) throws -> [UInt8] {
        let entry = try #require(SampleMedia.entry(relative))
        let old = Array(try #require(entry.contentIdentifier).utf8)
        let new = Array(identifier.utf8)
        try #require(old.count == new.count)
        var bytes = try SampleMedia.bytes(relative)
        var index = 0
        var replaced = 0
        while index + old.count <= bytes.count {
            if bytes[index] == old[0], Array(bytes[index..<index + old.count]) == old {
                bytes.replaceSubrange(index..<index + old.count, with: new)
                replaced += 1
                index += old.count
            } else {
                index += 1
            }
        }
        try #require(replaced > 0)
        return bytes
    }

    /// Checks that every input path appears exactly once in `result`.
    static func expectEachResourceOnce(
        _ result: PairingResult, inputs: [AssetResource], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var seen: [String] = []
        seen += result.pairs.flatMap { [$0.photo.path, $0.video.path] }
        seen += result.motionPhotos.map(\.path)
        seen += result.unpaired.map(\.resource.path)
        seen += result.duplicates.flatMap(\.duplicates)
        #expect(seen.sorted() == Set(inputs.map(\.path)).sorted(), sourceLocation: sourceLocation)
    }

    /// The unpaired reason of `path`, if it is unpaired.
    static func reason(of path: String, in result: PairingResult) -> UnpairedReason? {
        result.unpaired.first { $0.resource.path == path }?.reason
    }
}

/// A temporary folder, removed by `remove()`.
struct TemporaryFolder {
    /// The folder's path.
    let path: String

    init() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("livepair-pairing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = url.path
    }

    /// Copies a sample to `name` (may contain subfolders); returns the new path.
    @discardableResult
    func copy(_ sample: String, as name: String) throws -> String {
        try write(SampleMedia.bytes(sample), as: name)
    }

    /// Writes `bytes` to `name` (may contain subfolders); returns the path.
    @discardableResult
    func write(_ bytes: [UInt8], as name: String) throws -> String {
        let target = path + "/" + name
        let folder = (target as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: target))
        return target
    }

    /// The resource for `name` in this folder.
    func resource(_ name: String) -> AssetResource { PairingFixtures.resource(at: path + "/" + name) }

    /// Removes the folder and everything in it.
    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// Counts the files opened and the bytes read through it; reads the file system.
final class CountingContentSource: ResourceContentSource {
    private let counts = Mutex((opens: 0, reads: 0, bytes: 0))

    /// Files opened so far.
    var opens: Int { counts.withLock { $0.opens } }
    /// Reads so far.
    var reads: Int { counts.withLock { $0.reads } }
    /// Bytes read so far.
    var bytesRead: Int { counts.withLock { $0.bytes } }

    func open(path: String) throws -> any ByteSource {
        counts.withLock { $0.opens += 1 }
        return CountingByteSource(base: try FileByteSource(path: path), owner: self)
    }

    fileprivate func count(_ bytes: Int) {
        counts.withLock {
            $0.reads += 1
            $0.bytes += bytes
        }
    }
}

private struct CountingByteSource: ByteSource {
    let base: FileByteSource
    let owner: CountingContentSource

    var size: UInt64 { base.size }
    var name: String { base.name }

    func read(at offset: UInt64, count: Int) throws(FormatError) -> [UInt8] {
        let bytes = try base.read(at: offset, count: count)
        owner.count(bytes.count)
        return bytes
    }
}

/// A content source that must never be asked for anything.
struct ForbiddenContentSource: ResourceContentSource {
    func open(path: String) throws -> any ByteSource {
        Issue.record("unexpected content read of \(path)")
        throw FormatError.io(path: path, reason: "reads are forbidden in this test")
    }
}
