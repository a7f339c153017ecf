import Foundation
import LivePairLibrary
import Synchronization

extension LivePairService {
    /// `GET /v1/changes?since=N&timeout=S`: the owner's assets inserted, updated and deleted after
    /// change sequence `N`, as a long poll: answers at once when there are some, else waits up to
    /// `S` seconds (at most the configured limit) for some. Without `since`, answers at once with
    /// the current sequence to start from.
    func changeRoutes() -> [Route] {
        [
            Route(method: "GET", pattern: "/v1/changes", authenticated: true, kind: .blocking) {
                [self] context throws(HTTPError) in try changes(context)
            }
        ]
    }

    private func changes(_ context: RouteContext) throws(HTTPError) -> HTTPResponse {
        let limit = Int(configuration.longPollLimit)
        let timeout = try context.integer("timeout", in: 0...max(0, limit), default: min(25, limit))
        let since: Int64
        if let text = context.request.query["since"] {
            guard let value = Int64(text), value >= 0 else { throw .badRequest("since must be a change sequence (0 or more)") }
            since = value
        } else {
            since = -1
        }
        let deadline = Date().addingTimeInterval(Double(timeout))
        while true {
            let log: OwnerChangeLog
            do throws(LibraryError) {
                log = try library.changeLog(after: max(0, since), owner: context.owner)
            } catch {
                throw .internal("the change log cannot be read")
            }
            if since < 0 {
                return JSONText.response(ChangesBody(since: nil, next: log.latestSequence, inserted: [], updated: [], deleted: []))
            }
            if !log.isEmpty || Date() >= deadline || shutdown.load(ordering: .acquiring) {
                return JSONText.response(
                    ChangesBody(
                        since: since, next: log.latestSequence, inserted: log.insertedAssetIdentifiers,
                        updated: log.updatedAssetIdentifiers, deleted: log.deletedAssetIdentifiers))
            }
            usleep(100_000)
        }
    }
}

private struct ChangesBody: Encodable {
    var since: Int64?
    var next: Int64
    var inserted: [String]
    var updated: [String]
    var deleted: [String]
}
