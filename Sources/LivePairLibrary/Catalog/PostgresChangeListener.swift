import Foundation
import LivePairPostgres
import Synchronization

/// Listens on a catalog's `NOTIFY` channel on a connection and thread of its own, and calls the
/// handler after each notification (every commit that appended to the change log sends one; the
/// handler then reads the log, so a notification carries no data of its own). The handler is also
/// called once each time `LISTEN` is in place, the first time included: a commit made before
/// (between an observer's registration and the listener's first `LISTEN`, or while a lost
/// connection was being reopened, every half second while the server is away) sent a
/// notification nobody heard, and reading the log is what delivers it.
final class PostgresChangeListener: CatalogCommitSubscription {
    private let cancelled = Atomic<Bool>(false)

    /// Starts listening.
    init(connectionString: String, channel: String, onNotification: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in run(connectionString: connectionString, channel: channel, handler: onNotification) }
        thread.name = "livepair-catalog-listener"
        thread.start()
    }

    /// Stops the thread (within 200 ms); a handler call under way finishes.
    func cancel() {
        cancelled.store(true, ordering: .sequentiallyConsistent)
    }

    private var isCancelled: Bool { cancelled.load(ordering: .sequentiallyConsistent) }

    private func notify(_ handler: @Sendable () -> Void) {
        if !isCancelled { handler() }
    }

    private func run(connectionString: String, channel: String, handler: @escaping @Sendable () -> Void) {
        var connection: PostgresConnection?
        while !isCancelled {
            do throws(PostgresError) {
                if connection == nil {
                    let opened = try PostgresConnection(connectionString, defaults: PostgresNetworkTimeouts.connectionDefaults)
                    // The channel is `livepair_changes_` + hex digits: a plain identifier.
                    try opened.execute("LISTEN \(channel)")
                    connection = opened
                    notify(handler)
                }
                if let connection, !(try connection.notifications(timeoutMilliseconds: 200)).isEmpty { notify(handler) }
            } catch {
                connection = nil
                Thread.sleep(forTimeInterval: 0.5)
            }
        }
    }
}
