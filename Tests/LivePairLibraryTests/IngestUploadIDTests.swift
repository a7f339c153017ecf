import Dispatch
import LivePair
@testable import LivePairLibrary
import Synchronization
import TestSupport
import Testing

/// One upload ID for two different files: decided in the ingest transaction, so of two writers
/// (two library handles, as two nodes would have) taking one ID at once, one ingests and the other
/// gets `uploadConflict` with the first's outcome; never two uploads kept.
@Suite("Ingestion: upload ID conflicts")
struct IngestUploadIDTests {
    @Test("two writers, one upload ID, two files at once: one pending, one uploadConflict carrying it (three rounds)", arguments: CatalogKind.underTest)
    func twoWritersOneID(_ kind: CatalogKind) throws {
        let fixture = try IngestFixture("upload-id", kind)
        defer { fixture.remove() }
        let writers = [Ingestor(library: try fixture.open()), Ingestor(library: try fixture.open())]
        for round in 0..<3 {
            let (still, movie) = ingestSamplePairs[round]
            let files = [still, movie].map(SampleMedia.path)
            let results = Mutex<[Int: Result<IngestOutcome, LibraryError>]>([:])
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                let result: Result<IngestOutcome, LibraryError>
                do throws(LibraryError) {
                    result = .success(try writers[index].ingest(fileAt: files[index], owner: "o", uploadID: "same-\(round)"))
                } catch {
                    result = .failure(error)
                }
                results.withLock { $0[index] = result }
            }
            let answers = results.withLock { $0 }
            let outcomes = answers.values.compactMap { try? $0.get() }
            try #require(outcomes.count == 1, "round \(round): \(answers)")
            let first = outcomes[0]
            #expect(first.kind == "pending")
            let conflicts = answers.values.compactMap { result -> LibraryError? in
                if case let .failure(error) = result { return error }
                return nil
            }
            #expect(conflicts == [.uploadConflict(uploadID: "same-\(round)", first: first)], "round \(round)")
            // Later, on either writer: the other file is refused again, the kept one answered again.
            let kept = answers.first { (try? $0.value.get()) != nil }!.key
            #expect(throws: LibraryError.uploadConflict(uploadID: "same-\(round)", first: first)) {
                try writers[kept].ingest(fileAt: files[1 - kept], owner: "o", uploadID: "same-\(round)")
            }
            #expect(try writers[1 - kept].ingest(fileAt: files[kept], owner: "o", uploadID: "same-\(round)") == first)
        }
        let library = try fixture.open()
        #expect(try Ingestor(library: library).pendingUploads(olderThan: 0).count == 3)
        #expect(try library.fetchAssets().count == 0)
        _ = try IngestInvariants.check(library)
    }
}
