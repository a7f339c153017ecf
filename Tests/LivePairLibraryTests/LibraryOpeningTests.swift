import Foundation
@testable import LivePairLibrary
import TestSupport
import Testing

/// Opening never lets a catalog that is missing, empty, foreign or another library's make the
/// library delete its store; read-only opens change nothing. Store-neutral: under
/// `LIVEPAIR_TEST_STORE=s3` the resources are objects (`storedFiles` lists them) and every open
/// goes through `openDirectoryLibrary`, which passes the S3 store.
@Suite struct LibraryOpeningTests {
    /// A library holding the train Live Photo plus an unreferenced file old enough to be swept,
    /// closed again; returns its directory and the digests in its store.
    private func populatedLibrary() throws -> (String, Set<String>) {
        let directory = try makeTemporaryDirectory("opening")
        do {
            let library = try makeLibrary(at: directory)
            try importPair(SamplePairs.train, into: library)
            _ = try library.store.store(data: Array("unreferenced".utf8))
        }
        let stored = try storedFiles(directory)
        #expect(stored.count == 3)
        return (directory, stored)
    }

    /// The digests the library's store holds: the files of `resources/`, or the objects of its S3 store.
    private func storedFiles(_ directory: String) throws -> Set<String> {
        if S3StoreTestSupport.librariesUseS3 {
            return Set(try S3StoreTestSupport.store(forLibraryAt: directory).allDigests().map(\.hex))
        }
        return Set(try DirectoryStore(directory: directory + "/resources", removingAbandonedTemporaryFiles: false).allDigests().map(\.hex))
    }

    /// Opens `directory` with the sweep at once (grace period 0) and returns the problem it was refused for.
    private func refusal(_ directory: String, access: LibraryAccess = .readWrite) -> LibraryProblem? {
        do {
            _ = try openDirectoryLibrary(at: directory, configuration: LibraryConfiguration(orphanGracePeriod: 0, access: access))
            Issue.record("\(directory) was opened")
            return nil
        } catch {
            guard case let .notALibrary(path, problem) = error as? LibraryError, path == directory else {
                Issue.record("unexpected error \(error)")
                return nil
            }
            return problem
        }
    }

    @Test func anEmptyCatalogIsRefusedAndNothingIsDeleted() throws {
        let (directory, stored) = try populatedLibrary()
        #expect(FileManager.default.createFile(atPath: directory + "/catalog.sqlite", contents: Data()))
        #expect(refusal(directory) == .catalogEmpty)
        #expect(refusal(directory, access: .readOnly) == .catalogEmpty)
        #expect(try storedFiles(directory) == stored)
        #expect(try FileManager.default.attributesOfItem(atPath: directory + "/catalog.sqlite")[.size] as? Int == 0)
    }

    @Test func aMissingCatalogIsRefusedAndNothingIsDeleted() throws {
        let (directory, stored) = try populatedLibrary()
        try FileManager.default.removeItem(atPath: directory + "/catalog.sqlite")
        #expect(refusal(directory) == .catalogMissing)
        #expect(try storedFiles(directory) == stored)
        #expect(!FileManager.default.fileExists(atPath: directory + "/catalog.sqlite"), "no catalog was created")
    }

    @Test func aForeignCatalogIsRefusedAndNothingIsDeleted() throws {
        let (directory, stored) = try populatedLibrary()
        let catalog = directory + "/catalog.sqlite"
        try FileManager.default.removeItem(atPath: catalog)
        // Another program's database: a table of its own, no LivePair schema (written by Python's sqlite3).
        _ = try storageRunProgram("/usr/bin/python3", [
            "-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('CREATE TABLE notes(text TEXT)'); c.commit()",
            catalog,
        ])
        #expect(try FileManager.default.attributesOfItem(atPath: catalog)[.size] as? Int ?? 0 > 0)
        #expect(refusal(directory) == .catalogForeign("another schema"))
        // Not a database at all.
        try Data("just text, not a database at all; long enough to have a header's length".utf8 + [UInt8](repeating: 0x20, count: 60))
            .write(to: URL(fileURLWithPath: catalog))
        #expect(refusal(directory) == .catalogForeign("not a SQLite database"))
        #expect(try storedFiles(directory) == stored)
    }

    /// Another library's catalog put in place: catalog and store carry different identities.
    @Test func anotherLibrarysCatalogIsRefusedAndNothingIsDeleted() throws {
        let (directory, stored) = try populatedLibrary()
        let other = try makeTemporaryDirectory("other")
        let otherIdentity = try #require(try makeLibrary(at: other).identity)
        let mine = try #require(try DirectoryStore(directory: directory + "/resources").libraryIdentity())
        try FileManager.default.removeItem(atPath: directory + "/catalog.sqlite")
        try FileManager.default.copyItem(atPath: other + "/catalog.sqlite", toPath: directory + "/catalog.sqlite")
        #expect(refusal(directory) == .identityMismatch(catalog: otherIdentity, store: mine))
        #expect(try storedFiles(directory) == stored)
    }

    @Test func openModesCreateOnlyInMissingOrEmptyDirectories() throws {
        let parent = try makeTemporaryDirectory("modes")
        let missing = parent + "/new"
        #expect(throws: LibraryError.libraryNotFound(path: missing)) {
            try PhotoLibrary.open(at: missing, configuration: LibraryConfiguration(openMode: .openExisting))
        }
        #expect(!FileManager.default.fileExists(atPath: missing))
        let created = try PhotoLibrary.open(at: missing, configuration: LibraryConfiguration(openMode: .createNew))
        let identity = try #require(created.identity)
        #expect(try DirectoryStore(directory: missing + "/resources").libraryIdentity() == identity)
        #expect(throws: LibraryError.directoryNotEmpty(path: missing)) {
            try PhotoLibrary.open(at: missing, configuration: LibraryConfiguration(openMode: .createNew))
        }
        #expect(try PhotoLibrary.open(at: missing, configuration: LibraryConfiguration(openMode: .openExisting)).identity == identity)
        // A directory holding something else is never made a library.
        let occupied = parent + "/occupied"
        try FileManager.default.createDirectory(atPath: occupied, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: occupied + "/notes.txt", contents: Data("keep".utf8)))
        #expect(refusal(occupied) == .catalogMissing)
        #expect(try FileManager.default.contentsOfDirectory(atPath: occupied) == ["notes.txt"])
    }

    /// A read-only open removes nothing (no orphan sweep, no temporary-file clean-up) and refuses changes.
    @Test func readOnlyOpensChangeNothing() throws {
        let (directory, stored) = try populatedLibrary()
        let temporary = directory + "/resources/.tmp/abandoned.tmp"
        #expect(FileManager.default.createFile(atPath: temporary, contents: Data([1])))
        let library = try openDirectoryLibrary(
            at: directory, configuration: LibraryConfiguration(orphanGracePeriod: 0, openMode: .openExisting, access: .readOnly))
        #expect(try storedFiles(directory) == stored)
        #expect(FileManager.default.fileExists(atPath: temporary))
        #expect(try library.fetchAssets().count == 1)
        #expect(throws: LibraryError.readOnlyLibrary) { try library.removeUnreferencedResources(olderThan: 0) }
        #expect(throws: LibraryError.readOnlyLibrary) {
            try library.performChangesAndWait { context in
                context.deleteAssets(withLocalIdentifiers: [try #require(try library.fetchAssets().firstObject).localIdentifier])
            }
        }
        // Read-write, the same library sweeps: the unreferenced file and the temporary file go.
        _ = try makeLibrary(at: directory)
        #expect(try storedFiles(directory).count == 2)
        #expect(!FileManager.default.fileExists(atPath: temporary))
    }

    /// A creation cut short (the process killed after the catalog file appeared) is recognised by
    /// its marker and done again by the next read-write open; it is never taken for a library,
    /// and it is never redone over stored files.
    @Test func anInterruptedCreationIsDoneAgain() throws {
        let directory = try makeTemporaryDirectory("interrupted")
        _ = try DirectoryStore(directory: directory + "/resources")
        #expect(FileManager.default.createFile(atPath: directory + "/.livepair-creating", contents: Data()))
        #expect(FileManager.default.createFile(atPath: directory + "/catalog.sqlite", contents: Data()))
        #expect(throws: LibraryError.libraryNotFound(path: directory)) {
            try PhotoLibrary.open(at: directory, configuration: LibraryConfiguration(openMode: .openExisting))
        }
        let library = try makeLibrary(at: directory)
        #expect(library.identity != nil)
        #expect(!FileManager.default.fileExists(atPath: directory + "/.livepair-creating"))
        try importPair(SamplePairs.train, into: library)
        #expect(try makeLibrary(at: directory).fetchAssets().count == 1)

        // The marker next to stored files: refused, nothing removed.
        #expect(FileManager.default.createFile(atPath: directory + "/.livepair-creating", contents: Data()))
        #expect(refusal(directory) == .creationInterrupted)
        #expect(try storedFiles(directory).count == 2)
    }

    /// A library already open whose catalog stops carrying its identity (rewritten by another
    /// program) removes nothing any more: every removal checks the identity in its transaction.
    @Test func theSweepChecksTheIdentityInItsTransaction() throws {
        let (directory, stored) = try populatedLibrary()
        let library = try openDirectoryLibrary(at: directory, configuration: LibraryConfiguration(orphanGracePeriod: 3600))
        #expect(try storedFiles(directory) == stored, "the unreferenced file is younger than the grace period")
        _ = try storageRunProgram("/usr/bin/python3", [
            "-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute(\"UPDATE library_identity SET identity = 'other'\"); c.commit()",
            directory + "/catalog.sqlite",
        ])
        #expect(try library.removeUnreferencedResources(olderThan: 0) == 0)
        #expect(try storedFiles(directory) == stored)
        // With its identity back, the same sweep removes the one unreferenced file.
        _ = try storageRunProgram("/usr/bin/python3", [
            "-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('UPDATE library_identity SET identity = ?', (sys.argv[2],)); c.commit()",
            directory + "/catalog.sqlite", try #require(library.identity),
        ])
        #expect(try library.removeUnreferencedResources(olderThan: 0) == 1)
        #expect(try storedFiles(directory).count == 2)
    }
}
