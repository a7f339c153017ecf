import Foundation
import LivePair
import LivePairLibrary
import Testing

@Suite("The Ingestor and special files")
struct IngestorSpecialFileTests {
    @Test("a FIFO handed to Ingestor.ingest is refused at once, nothing stored", .timeLimit(.minutes(10)))
    func fifoUpload() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livepair-fifo-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(mkfifo(folder + "/upload.heic", 0o644) == 0)
        let library = try PhotoLibrary.open(at: folder + "/library")
        let outcome = try? Ingestor(library: library).ingest(fileAt: folder + "/upload.heic", owner: "alice")
        if case let .rejected(findings)? = outcome {
            #expect(findings.map(\.message).contains { $0.contains("not a regular file (a FIFO)") }, "\(findings)")
        } else {
            Issue.record("a FIFO upload was not rejected: \(String(describing: outcome))")
        }
        #expect(try library.fetchAssets(with: FetchOptions(includeHiddenAssets: true)).isEmpty)
    }
}
