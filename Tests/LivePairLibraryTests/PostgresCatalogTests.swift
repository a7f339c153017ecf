import Foundation
@testable import LivePairLibrary
import LivePairPostgres
import TestSupport
import Testing

/// What only the PostgreSQL catalog has: its schema version check, explicit creation, and
/// reconnection. (Everything else runs on both catalogs through `CatalogKind`.)
@Suite struct PostgresCatalogTests {
    /// A fresh schema's URL and a connection to it.
    private static func freshSchema() throws -> (url: String, connection: PostgresConnection) {
        let url = try PostgresTestServer.freshSchemaURL()
        return (url, try PostgresConnection(url))
    }

    @Test func aMissingCatalogIsRefusedUnlessCreated() throws {
        let (url, connection) = try Self.freshSchema()
        let store = try makeTemporaryDirectory() + "/resources"
        let error = try #require(throws: LibraryError.self) {
            try PhotoLibrary.open(catalog: .postgres(connectionString: url), store: .directory(store))
        }
        #expect(error.description.contains("livepair library init"))
        #expect(try connection.execute("SELECT to_regclass('catalog_state') IS NULL").scalar == .bool(true))
        let library = try PhotoLibrary.open(catalog: .postgres(connectionString: url), store: .directory(store), create: true)
        #expect(try library.currentChangeSequence() == 0)
        #expect(try connection.execute("SELECT schema_version FROM catalog_state").scalar == .integer(Int64(PostgresCatalogSchema.currentVersion)))
        // Opening again (without create) finds it.
        _ = try PhotoLibrary.open(catalog: .postgres(connectionString: url), store: .directory(store))
    }

    @Test func aNewerSchemaIsRefusedWithBothVersionsNamed() throws {
        let (url, connection) = try Self.freshSchema()
        let store = try makeTemporaryDirectory() + "/resources"
        _ = try PhotoLibrary.open(catalog: .postgres(connectionString: url), store: .directory(store), create: true)
        try connection.execute("UPDATE catalog_state SET schema_version = 7")
        let error = try #require(throws: LibraryError.self) {
            try PhotoLibrary.open(catalog: .postgres(connectionString: url), store: .directory(store), create: true)
        }
        #expect(error == .catalogTooNew(found: 7, supported: PostgresCatalogSchema.currentVersion))
        #expect(error.description == "the catalog has schema version 7; this LivePair reads up to \(PostgresCatalogSchema.currentVersion)")
    }

    @Test func anUnreachableServerIsATypedConnectionError() throws {
        let error = try #require(throws: LibraryError.self) {
            try PhotoLibrary.open(
                catalog: .postgres(connectionString: "postgresql://postgres@/livepair?host=/nonexistent-dir&connect_timeout=2"),
                store: .directory(try makeTemporaryDirectory()))
        }
        guard case let .catalogServer(failure) = error else {
            Issue.record("expected a catalog server error, got \(error)")
            return
        }
        #expect(failure.kind == .connection)
        #expect(error.isRetryableCatalogFailure)
    }

    /// The server ends every connection of the library (as a restart would): the next batch and the
    /// next fetch reconnect and succeed.
    @Test func endedConnectionsAreReplacedAndTheBatchCommits() throws {
        let name = "livepair-test-\(UUID().uuidString.prefix(8))"
        let url = try PostgresTestServer.freshSchemaURL() + "&application_name=\(name)"
        let store = try makeTemporaryDirectory() + "/resources"
        let library = try PhotoLibrary.open(
            catalog: .postgres(connectionString: url), store: .directory(store),
            configuration: LibraryConfiguration(orphanGracePeriod: 0), create: true)
        let first = try importPair(SamplePairs.train, into: library)
        let admin = try PostgresConnection(try PostgresTestServer.url())
        let ended = try admin.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = $1", [.text(name)]).scalar
        #expect(ended != .integer(0))
        let second = try importPair(SamplePairs.iPhone15, into: library)
        #expect(try library.fetchAssets().localIdentifiers == [first.localIdentifier, second.localIdentifier])
    }
}
