import Foundation
import LivePair
import LivePairLibrary

extension LivePairService {
    /// `GET /v1/assets` (paginated, fetch options as query parameters), `GET` and `DELETE
    /// /v1/assets/{id}`, `GET /v1/pending`: the token's owner's only.
    func assetRoutes() -> [Route] {
        [
            Route(method: "GET", pattern: "/v1/assets", authenticated: true, kind: .quick) { [self] context throws(HTTPError) in
                try listAssets(context)
            },
            // Blocking: it reads the original's headers (ranged GETs on an S3 store).
            Route(method: "GET", pattern: "/v1/assets/{id}", authenticated: true, kind: .blocking) {
                [self] context throws(HTTPError) in
                let (asset, resources) = try ownedAsset(context.parameter("id"), owner: context.owner)
                let failures: [AssetRepresentation.DerivativeFailure]
                do throws(LibraryError) {
                    failures = try derivativeFailures(of: asset)
                } catch {
                    throw .internal("the catalog cannot be read", cause: error)
                }
                return JSONText.response(
                    try representation(
                        asset, resources: resources, derivativeFailures: failures,
                        metadata: AssetFileMetadata(asset, resources: resources, library: library)))
            },
            Route(method: "DELETE", pattern: "/v1/assets/{id}", authenticated: true, kind: .blocking) {
                [self] context throws(HTTPError) in
                let (asset, _) = try ownedAsset(context.parameter("id"), owner: context.owner)
                do throws(LibraryError) {
                    _ = try library.performChangesAndWait { _ in
                        AssetChangeRequest.deleteAssets(withLocalIdentifiers: [asset.localIdentifier])
                    }
                } catch {
                    throw .internal("the asset could not be deleted", cause: error)
                }
                return HTTPResponse(status: 204, headers: [("Cache-Control", "no-store")])
            },
            Route(method: "GET", pattern: "/v1/pending", authenticated: true, kind: .quick) { [self] context throws(HTTPError) in
                let pending: [PendingUpload]
                do throws(LibraryError) {
                    pending = try ingestor.pendingUploads(olderThan: 0, owner: context.owner)
                } catch {
                    throw .internal("the pending uploads cannot be read", cause: error)
                }
                return JSONText.response(PendingList(pending: pending.map(PendingRepresentation.init)))
            },
        ]
    }

    /// `asset` as the API shows it, with its edit summarised (its adjustment data read).
    func representation(
        _ asset: Asset, resources: [LibraryAssetResource], derivativeFailures: [AssetRepresentation.DerivativeFailure] = [],
        metadata: AssetFileMetadata? = nil
    ) throws(HTTPError) -> AssetRepresentation {
        do throws(LibraryError) {
            return AssetRepresentation(
                asset, resources: resources, edit: try EditRepresentation.read(asset, in: library),
                currentStillImageTime: try library.stillImageTime(for: asset, version: .current),
                derivativeFailures: derivativeFailures, metadata: metadata)
        } catch {
            throw .internal("the adjustment data cannot be read", cause: error)
        }
    }

    /// The asset `identifier` with its resources when it belongs to `owner`; 404 otherwise,
    /// whether it does not exist or is another owner's (existence is not revealed).
    func ownedAsset(_ identifier: String, owner: String) throws(HTTPError) -> (Asset, [LibraryAssetResource]) {
        let found: (Asset, [LibraryAssetResource])?
        do throws(LibraryError) {
            let options = FetchOptions(predicate: .owner(owner), includeHiddenAssets: true)
            if let asset = try library.fetchAssets(withLocalIdentifiers: [identifier], options: options).firstObject,
                asset.owner == owner
            {
                found = (asset, try library.assetResources(for: asset))
            } else {
                found = nil
            }
        } catch {
            throw .internal("the catalog cannot be read", cause: error)
        }
        guard let found else { throw .notFound("no such asset") }
        return found
    }

    /// The derivatives of `asset` whose background job failed, with the cause. A plain video's
    /// motion job is left out: the route makes no motion for it (the page plays the original).
    func derivativeFailures(of asset: Asset) throws(LibraryError) -> [AssetRepresentation.DerivativeFailure] {
        try library.derivativeJobs(ofAsset: asset.localIdentifier).filter { $0.state == .failed && ($0.kind != .motion || asset.isLivePhoto) }.map {
            AssetRepresentation.DerivativeFailure(derivative: $0.kind.rawValue, message: $0.cause ?? "it could not be made")
        }
    }

    /// A page of the owner's assets: by `offset`, or, in date-taken order, after a `cursor`.
    private func listAssets(_ context: RouteContext) throws(HTTPError) -> HTTPResponse {
        let limit = try context.integer("limit", in: 1...1000, default: 100)
        let (options, sort) = try AssetQueryParameters.fetchOptions(context.request.query, owner: context.owner)
        var after: DateTakenPosition?
        if let text = context.request.query["cursor"] {
            guard sort.key == .dateTaken else { throw .badRequest("cursor pages the date-taken order only (sort=dateTaken or -dateTaken)") }
            guard context.request.query["offset"] == nil else { throw .badRequest("cursor and offset cannot be combined") }
            let position = try AssetCursor.position(text)
            guard position.ascending == sort.ascending else { throw .badRequest("the cursor was given for the other direction of sort") }
            after = position
        }
        let offset = try context.integer("offset", in: 0...Int(Int32.max), default: 0)
        var page: [AssetRepresentation] = []
        let total: Int
        var next: String?
        do throws(LibraryError) {
            let everything = try library.fetchAssets(with: options)
            total = everything.count
            var result = everything
            if let after {
                var following = options
                following.predicate = .and([options.predicate ?? .and([]), .follows(after)])
                result = try library.fetchAssets(with: following)
            }
            let end = min(result.count, offset + limit)
            for index in offset..<max(offset, end) {
                let asset = try result.object(at: index)
                page.append(
                    AssetRepresentation(
                        asset, resources: try library.assetResources(for: asset), edit: try EditRepresentation.read(asset, in: library),
                        currentStillImageTime: try library.stillImageTime(for: asset, version: .current),
                        derivativeFailures: try derivativeFailures(of: asset)))
            }
            if sort.key == .dateTaken, end < result.count, end > offset {
                next = AssetCursor.text(DateTakenPosition(after: try result.object(at: end - 1), ascending: sort.ascending))
            }
        } catch {
            throw .internal("the catalog cannot be read", cause: error)
        }
        let nextOffset = after == nil && offset + limit < total ? offset + limit : nil
        return JSONText.response(
            AssetPage(assets: page, total: total, offset: after == nil ? offset : nil, limit: limit, nextOffset: nextOffset, next: next))
    }
}

private struct AssetPage: Encodable {
    var assets: [AssetRepresentation]
    /// Every asset the query matches, on every page.
    var total: Int
    /// Absent on a page asked for by `cursor`.
    var offset: Int?
    var limit: Int
    var nextOffset: Int?
    /// In date-taken order, the `cursor` of the next page when there is one.
    var next: String?
}

private struct PendingList: Encodable {
    var pending: [PendingRepresentation]
}

/// A pending half as the API shows it.
private struct PendingRepresentation: Encodable {
    var contentIdentifier: String
    var type: String
    var size: UInt64
    var digest: String
    var originalFilename: String?
    var uploadID: String?
    var receivedAt: Date

    init(_ upload: PendingUpload) {
        contentIdentifier = upload.contentIdentifier
        type = upload.type.rawValue
        size = upload.resource.size
        digest = upload.resource.digest.hex
        originalFilename = upload.originalFilename
        uploadID = upload.uploadID
        receivedAt = upload.receivedAt
    }
}
