import Foundation
import LivePairLibrary
import Synchronization
import Testing
import TestSupport

/// A node cut off from the network while it holds the catalog's write lock (inside its write
/// transaction, just before its COMMIT, which the cut then loses) must not keep the other nodes
/// out: the server ends a write transaction left idle for half the lock timeout, so another node's
/// change gets the lock before its own lock wait runs out. Without that, the server kept the dead
/// node's transaction (and the lock) until its keepalives noticed (two hours by default), and every
/// other node's change failed with a lock timeout. The PostgreSQL server runs in a network
/// namespace of its own; the cut node reaches it over TCP, the other over its unix socket (which
/// the cut does not touch). Needs root and `ip netns`; fails with the reason without them.
@Suite struct CatalogLockCutTests {
    @Test func aNodeCutInsideItsWriteTransactionReleasesTheCatalogLock() throws {
        let namespaces = try NetworkNamespaces(nodes: 1)
        defer { namespaces.delete() }
        let server = try DedicatedPostgresServer(listenAddress: namespaces.addresses[0], namespace: namespaces.names[0])
        defer { server.stop() }
        let tcpURL = try server.freshSchemaURL(tcp: true)
        let schemaOption = try #require(tcpURL.split(separator: "?").last.map(String.init))
        let socketURL = server.url + "&" + schemaOption
        let store = try makeTemporaryDirectory() + "/resources"
        let nearby = try PhotoLibrary.open(catalog: .postgres(connectionString: socketURL), store: .directory(store), create: true)

        let cut = Mutex(false)
        var configuration = LibraryConfiguration(
            busyTimeoutMilliseconds: 4_000,
            faultInjector: { point in
                // Inside the transaction, after its statements: the lock is held.
                guard point == .commitCatalogTransaction, !cut.withLock({ $0 }) else { return }
                try namespaces.cut(0)
                cut.withLock { $0 = true }
            })
        configuration.catalogRetrySeconds = 2
        let far = try PhotoLibrary.open(
            catalog: .postgres(
                connectionString: tcpURL
                    + "&connect_timeout=2&keepalives_idle=1&keepalives_interval=1&keepalives_count=2&tcp_user_timeout=2000"),
            store: .directory(store), configuration: configuration)
        let farChange = JoinedThread { () -> LibraryError? in
            do throws(LibraryError) {
                try far.performChangesAndWait { context in _ = context.creationRequestForAssetCollection(withTitle: "far") }
                return nil
            } catch {
                return error
            }
        }
        let deadline = Date().addingTimeInterval(600)  // a guard against a hang, not a bound on speed
        while !cut.withLock({ $0 }) && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        try #require(cut.withLock { $0 }, "the far node's transaction never reached its commit")

        // The far node's session holds the lock; the nearby node (10 s lock wait) must get it.
        // Without the far session's timeouts the lock would be held past the nearby node's wait
        // and this change would fail with a busy catalog.
        try nearby.performChangesAndWait { context in _ = context.creationRequestForAssetCollection(withTitle: "near") }

        let farError = try #require(farChange.wait(seconds: 30), "the far node's change did not end within 30 s")
        let error = try #require(farError, "the far node's COMMIT was lost in the cut: its change cannot succeed")
        #expect(error.isRetryableCatalogFailure, "a lost connection: \(error)")
        #expect(try nearby.fetchAssetCollections().map(\.title) == ["near"], "nothing of the far node's change was committed")
    }
}
