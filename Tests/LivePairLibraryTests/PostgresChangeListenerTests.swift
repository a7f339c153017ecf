import Foundation
@testable import LivePairLibrary
import Synchronization
import TestSupport
import Testing

/// The PostgreSQL push of other nodes' commits starts listening on a thread of its own, after the
/// observer registered: a commit made in between sends a `NOTIFY` nobody hears. The listener
/// therefore runs its handler (which reads the change log) once `LISTEN` is in place, the first
/// time included, so that commit is delivered. Without it an observer missed the commit until the
/// next one (seen once under load: `MultiWriterTests` waited for a change that never came).
@Suite struct PostgresChangeListenerTests {
    final class Calls: Sendable {
        let count = Atomic<Int>(0)
    }

    @Test func theHandlerRunsOnceListenIsInPlaceWithoutAnyNotification() throws {
        let url = try PostgresTestServer.freshSchemaURL()
        let calls = Calls()
        let listener = PostgresChangeListener(
            connectionString: url, channel: "livepair_changes_\(UInt32.random(in: 0...UInt32.max))",
            onNotification: { calls.count.add(1, ordering: .relaxed) })
        defer { listener.cancel() }
        // A guard against a hang, not a bound on speed: nothing ever notifies this channel.
        let deadline = Date().addingTimeInterval(600)
        while calls.count.load(ordering: .relaxed) == 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        #expect(calls.count.load(ordering: .relaxed) == 1)
    }
}
