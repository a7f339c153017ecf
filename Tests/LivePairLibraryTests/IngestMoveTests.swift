import Foundation
import LivePair
@testable import LivePairLibrary
import TestSupport
import Testing

/// `UploadFileHandling.move`: the ingestor takes the uploaded file over (hard link, unlink after commit).
@Suite struct IngestMoveTests {
    /// Copies of sample files in a scratch folder, as a backend's uploads.
    static func uploads(_ files: [String], in scratch: StorageScratchDirectory) throws -> [String] {
        try files.enumerated().map { index, file in
            try scratch.write(try SampleMedia.bytes(file), to: "\(index)-" + (file as NSString).lastPathComponent)
        }
    }

    /// Moved uploads are gone after their outcome (pending, accepted, duplicate), their bytes are
    /// the store's files (same inode until the unlink, so nothing was copied); a rejected upload is
    /// left in place; copying (the default) leaves every upload.
    @Test(arguments: CatalogKind.underTest) func movedUploadsAreTakenOver(_ kind: CatalogKind) throws {
        let scratch = try StorageScratchDirectory("move-uploads")
        defer { scratch.remove() }
        let fixture = try IngestFixture("move", kind)
        defer { fixture.remove() }
        let library = try fixture.open()
        let mover = Ingestor(library: library, options: IngestOptions(uploadHandling: .move))
        let pair = ingestSamplePairs[2]
        let paths = try Self.uploads([pair.still, pair.movie, pair.still, "broken/badimage.jpeg"], in: scratch)
        let inode = try #require(try FileManager.default.attributesOfItem(atPath: paths[0])[.systemFileNumber] as? UInt64)
        #expect(try mover.ingest(fileAt: paths[0], owner: "o").kind == "pending")
        #expect(!FileManager.default.fileExists(atPath: paths[0]))
        let pending = try #require(try mover.pendingUploads(olderThan: 0).first)
        let storedInode = try FileManager.default.attributesOfItem(atPath: library.store.localPath(for: pending.resource.digest))[.systemFileNumber] as? UInt64
        #expect(storedInode == inode)
        #expect(try mover.ingest(fileAt: paths[1], owner: "o").kind == "accepted")
        #expect(try mover.ingest(fileAt: paths[2], owner: "o").kind == "duplicate")
        #expect(try mover.ingest(fileAt: paths[3], owner: "o").kind == "rejected")
        #expect(paths.map { FileManager.default.fileExists(atPath: $0) } == [false, false, false, true])
        _ = try IngestInvariants.check(library)

        let copies = try Self.uploads([ingestSamplePairs[3].still], in: scratch)
        #expect(try Ingestor(library: library).ingest(fileAt: copies[0], owner: "o").kind == "pending")
        #expect(FileManager.default.fileExists(atPath: copies[0]))
    }
}
