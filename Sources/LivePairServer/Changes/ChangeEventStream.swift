import Foundation
import LivePairLibrary
import Synchronization

/// One `GET /v1/changes` client reading Server-Sent Events: an event `change` (id: the change
/// owner's position to resume from, see `OwnerChangePositions`; data: the same JSON as a long
/// poll's answer) each time the owner's assets change, after a first event `ready` carrying the
/// position it starts from, and a comment
/// line every 15 quiet seconds (so a client that left is noticed).
final class ChangeEventStream: Sendable {
    let owner: String
    let response: ResponseStream
    private let positions: OwnerChangePositions
    /// The owner's position last sent; the last moment something was sent.
    private let position: Mutex<(sequence: Int64, lastSent: Date)>
    /// Seconds of quiet before a keep-alive comment.
    static let keepAliveInterval: Double = 15

    /// A stream for `owner` starting after the owner's position `since`.
    init(positions: OwnerChangePositions, owner: String, since: Int64, onRelease: @escaping @Sendable () -> Void) {
        self.positions = positions
        self.owner = owner
        response = ResponseStream(onRelease: onRelease)
        position = Mutex((since, Date()))
        response.send(Self.event("ready", id: since, data: "{\"next\":\(since)}"))
    }

    /// Sends what changed for the owner since the last event, if anything did.
    func update() {
        guard response.isOpen else { return }
        let since = position.withLock { $0.sequence }
        let changes: OwnerChangePositions.Changes
        do throws(LibraryError) {
            changes = try positions.changes(after: since, owner: owner)
        } catch {
            return  // read again on the next change or tick
        }
        guard changes.next != since else { return }
        position.withLock { $0.sequence = max($0.sequence, changes.next) }
        guard !changes.isEmpty else { return }
        let body = ChangesBody(since: since, changes: changes)
        guard let encoded = JSONText.encode(body) else { return }
        let data = String(decoding: encoded, as: UTF8.self)
        response.send(Self.event("change", id: changes.next, data: data))
        position.withLock { $0.lastSent = Date() }
    }

    /// A comment line when nothing was sent for a while.
    func keepAlive() {
        let due = position.withLock { position in
            guard Date().timeIntervalSince(position.lastSent) >= Self.keepAliveInterval else { return false }
            position.lastSent = Date()
            return true
        }
        if due { response.send(Array(": keep-alive\n\n".utf8)) }
    }

    /// Ends the stream.
    func finish() { response.finish() }

    /// One event in the `text/event-stream` format.
    static func event(_ name: String, id: Int64, data: String) -> [UInt8] {
        Array("event: \(name)\nid: \(id)\ndata: \(data)\n\n".utf8)
    }
}

/// The JSON of a change answer (long poll) or a `change` event.
struct ChangesBody: Encodable {
    var since: Int64?
    var next: Int64
    var inserted: [String]
    var updated: [String]
    var deleted: [String]

    /// The owner's changes after position `since`.
    init(since: Int64?, changes: OwnerChangePositions.Changes) {
        self.since = since
        next = changes.next
        inserted = changes.inserted
        updated = changes.updated
        deleted = changes.deleted
    }

    /// No changes, starting from `next`.
    init(next: Int64) {
        since = nil
        self.next = next
        inserted = []
        updated = []
        deleted = []
    }
}
