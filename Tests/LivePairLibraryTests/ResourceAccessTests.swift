import Foundation
@testable import LivePairLibrary
import TestSupport
import Testing

/// Original filenames are stored exactly as given but never used as paths: exports stay inside
/// the chosen directory.
@Test(arguments: CatalogKind.underTest, [
    ("../x", "x"), ("/etc/passwd", "passwd"), ("../../../../tmp/evil.jpg", "evil.jpg"), ("a\u{0}b.jpg", "a_b.jpg"),
    ("..", nil), (".hidden.jpg", "hidden.jpg"), ("dir\\..\\win.jpg", "win.jpg"), ("", nil),
])
func originalFilenamesCannotEscapeOnExport(_ kind: CatalogKind, _ names: (String, String?)) throws {
    let (name, expected) = names
    let library = try makeLibrary(kind)
    let result = try library.performChangesAndWait { context in
        let request = context.creationRequestForAsset()
        request.addResource(
            with: .photo, path: SampleMedia.path("plain/IMG_2682.heic"),
            options: AssetResourceCreationOptions(originalFilename: name))
    }
    let identifier = result.assets[0].localIdentifier
    let resource = try #require(try library.assetResources(forLocalIdentifier: identifier).first)
    #expect(resource.originalFilename == name)  // kept as data
    let exportName = resource.exportFilename
    #expect(exportName == expected ?? "\(identifier)-photo.heic")
    #expect(!exportName.contains("/") && !exportName.contains("\u{0}") && !exportName.hasPrefix("."))

    let outside = try makeTemporaryDirectory("outside")
    let exportDirectory = outside + "/export"
    try FileManager.default.createDirectory(atPath: exportDirectory, withIntermediateDirectories: true)
    try AssetResourceManager(library: library).writeData(for: resource, toFile: exportDirectory + "/" + exportName)
    #expect(try FileManager.default.contentsOfDirectory(atPath: exportDirectory) == [exportName])
    #expect(try FileManager.default.contentsOfDirectory(atPath: outside) == ["export"])
}

@Test(arguments: CatalogKind.underTest) func readsResourcesAsChunksAndFiles(_ kind: CatalogKind) async throws {
    let library = try makeLibrary(kind)
    let outcome = try importPair(SamplePairs.train, into: library)
    let resources = try library.assetResources(forLocalIdentifier: outcome.localIdentifier)
    let movie = try #require(resources.first { $0.type == .pairedVideo })
    let expected = try SampleMedia.bytes(SamplePairs.train.1)
    let manager = AssetResourceManager(library: library)

    var streamed: [UInt8] = []
    var chunkCount = 0
    for try await chunk in manager.dataChunks(for: movie, options: .init(chunkSize: 64 * 1024)) {
        streamed += chunk
        chunkCount += 1
    }
    #expect(streamed.count == expected.count && ContentDigest.of(streamed) == ContentDigest.of(expected))
    #expect(chunkCount == (expected.count + 65535) / 65536)

    let collected = ChunkCollector()
    let error = await withCheckedContinuation { (continuation: CheckedContinuation<LibraryError?, Never>) in
        manager.requestData(
            for: movie, options: .init(chunkSize: 100_000), dataReceivedHandler: { collected.append($0) },
            completionHandler: { continuation.resume(returning: $0) })
    }
    #expect(error == nil)
    #expect(ContentDigest.of(collected.bytes) == ContentDigest.of(expected))

    let target = try makeTemporaryDirectory("export") + "/movie.mov"
    try manager.writeData(for: movie, toFile: target)
    #expect(ContentDigest.of([UInt8](try Data(contentsOf: URL(fileURLWithPath: target)))) == ContentDigest.of(expected))
    #expect(throws: LibraryError.io(path: target, reason: "the file exists")) {
        try manager.writeData(for: movie, toFile: target)
    }
}

/// Collects chunks delivered on another thread.
final class ChunkCollector: @unchecked Sendable {
    // Sendable: `collected` is guarded by `lock`.
    private let lock = NSLock()
    private var collected: [UInt8] = []

    func append(_ chunk: [UInt8]) { lock.withLock { collected += chunk } }

    var bytes: [UInt8] { lock.withLock { collected } }
}
