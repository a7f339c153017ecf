import Foundation
import LivePairLibrary
import Synchronization

extension LivePairService {
    /// `GET /v1/changes?since=N&timeout=S`: the owner's assets inserted, updated and deleted after
    /// position `N` in the owner's own changes (`OwnerChangePositions`: others' commits never move it), as a long poll: answers at once when there are some, else waits up to
    /// `S` seconds (at most the configured limit) for some. Without `since`, answers at once with
    /// the owner's current position to start from. With `Accept: text/event-stream`, Server-Sent Events
    /// instead (from `since`, the `Last-Event-ID` header, or now), until the client leaves.
    func changeRoutes() -> [Route] {
        [
            Route(method: "GET", pattern: "/v1/changes", authenticated: true, kind: .blocking) {
                [self] context throws(HTTPError) in try changes(context)
            }
        ]
    }

    private func changes(_ context: RouteContext) throws(HTTPError) -> HTTPResponse {
        if Self.wantsEventStream(context.request) { return try eventStream(context) }
        let limit = Int(configuration.longPollLimit)
        let timeout = try context.integer("timeout", in: 0...max(0, limit), default: min(25, limit))
        guard let since = try Self.sequence(context.request.query["since"], name: "since") else {
            return JSONText.response(ChangesBody(next: try currentPosition(owner: context.owner)))
        }
        let deadline = Date().addingTimeInterval(Double(timeout))
        changeFeed.listen()
        defer { changeFeed.stopListening() }
        while true {
            let seen = changeFeed.currentGeneration
            let changes = try ownerChanges(after: since, owner: context.owner)
            if !changes.isEmpty || Date() >= deadline || shutdown.load(ordering: .acquiring) {
                return JSONText.response(ChangesBody(since: since, changes: changes))
            }
            changeFeed.wait(after: seen, until: deadline)
        }
    }

    /// The event stream of the owner's changes.
    private func eventStream(_ context: RouteContext) throws(HTTPError) -> HTTPResponse {
        var since = try Self.sequence(context.request.query["since"], name: "since")
        if since == nil { since = try Self.sequence(context.request.header("last-event-id"), name: "Last-Event-ID") }
        if since == nil { since = try currentPosition(owner: context.owner) }
        let feed = changeFeed
        let holder = StreamHolder()
        let stream = ChangeEventStream(positions: changePositions, owner: context.owner, since: since ?? 0) {
            if let stream = holder.stream { feed.remove(stream) }
        }
        holder.stream = stream
        feed.add(stream)
        return HTTPResponse(
            status: 200,
            headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-store"), ("X-Accel-Buffering", "no")],
            body: .stream(stream.response))
    }

    private func ownerChanges(after position: Int64, owner: String) throws(HTTPError) -> OwnerChangePositions.Changes {
        do throws(LibraryError) {
            return try changePositions.changes(after: position, owner: owner)
        } catch {
            throw .internal("the change log cannot be read", cause: error)
        }
    }

    private func currentPosition(owner: String) throws(HTTPError) -> Int64 {
        do throws(LibraryError) {
            return try changePositions.current(owner: owner)
        } catch {
            throw .internal("the change log cannot be read", cause: error)
        }
    }

    /// Whether the client asks for Server-Sent Events.
    static func wantsEventStream(_ request: HTTPRequest) -> Bool {
        request.header("accept")?.split(separator: ",").contains {
            $0.split(separator: ";")[0].trimmingCharacters(in: .whitespaces).lowercased() == "text/event-stream"
        } ?? false
    }

    /// A position given as `name`; nil when absent.
    private static func sequence(_ text: String?, name: String) throws(HTTPError) -> Int64? {
        guard let text else { return nil }
        guard let value = Int64(text), value >= 0 else { throw .badRequest("\(name) must be a position in the owner's changes (0 or more)") }
        return value
    }
}

/// Lets a stream's release callback name the stream made after it.
private final class StreamHolder: @unchecked Sendable {
    // @unchecked: set once before the stream is handed to the daemon, read after.
    weak var stream: ChangeEventStream?
}
