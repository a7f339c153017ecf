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

    /// `asset` as the API shows it, with its edit summarised (`EditSummaries`: from the catalog,
    /// its adjustment data read once).
    func representation(
        _ asset: Asset, resources: [LibraryAssetResource], derivativeFailures: [AssetRepresentation.DerivativeFailure] = [],
        metadata: AssetFileMetadata? = nil
    ) throws(HTTPError) -> AssetRepresentation {
        do throws(LibraryError) {
            return AssetRepresentation(
                asset, resources: resources, edit: try EditSummaries.summary(of: asset, resources: resources, in: library),
                currentStillImageTime: try Self.currentStillImageTime(of: asset, resources: resources, in: library),
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

    /// The derivatives of `asset` whose background job failed, with the cause.
    func derivativeFailures(of asset: Asset) throws(LibraryError) -> [AssetRepresentation.DerivativeFailure] {
        Self.derivativeFailures(of: asset, jobs: try library.derivativeJobs(ofAsset: asset.localIdentifier))
    }

    /// The failures among `jobs`, the derivative jobs of `asset`. A plain video's motion job made
    /// its `playback.mp4`: it is named `playback`.
    static func derivativeFailures(of asset: Asset, jobs: [DerivativeJob]) -> [AssetRepresentation.DerivativeFailure] {
        jobs.filter { $0.state == .failed }.map {
            let name = $0.kind == .motion && LibraryDerivatives.isPlainVideo(asset) ? "playback" : $0.kind.rawValue
            return AssetRepresentation.DerivativeFailure(derivative: name, message: $0.cause ?? "it could not be made")
        }
    }

    /// A page of the owner's assets: by `offset`, or, in date-taken order, after a `cursor`. A fixed
    /// number of catalog statements whatever the page's size (`PhotoLibrary.assetPage`, then the
    /// edit summaries' records), no stored file read but an `.AAE` never summarised before.
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
        let found: AssetPage
        let edits: [String: EditRepresentation]
        var stillImageTimes: [String: Double?] = [:]
        do throws(LibraryError) {
            found = try library.assetPage(with: options, after: after, offset: offset, limit: limit)
            edits = try EditSummaries.summaries(of: found.assets, resources: found.resources, in: library)
            for asset in found.assets {
                stillImageTimes[asset.localIdentifier] = try Self.currentStillImageTime(
                    of: asset, resources: found.resources[asset.localIdentifier] ?? [], in: library)
            }
        } catch {
            throw .internal("the catalog cannot be read", cause: error)
        }
        let page = found.assets.map { asset in
            AssetRepresentation(
                asset, resources: found.resources[asset.localIdentifier] ?? [], edit: edits[asset.localIdentifier],
                currentStillImageTime: stillImageTimes[asset.localIdentifier],
                derivativeFailures: Self.derivativeFailures(of: asset, jobs: found.derivativeJobs[asset.localIdentifier] ?? []))
        }
        var next: String?
        if sort.key == .dateTaken, found.hasMore, let last = found.assets.last {
            next = AssetCursor.text(DateTakenPosition(after: last, ascending: sort.ascending))
        }
        let nextOffset = after == nil && offset + limit < found.total ? offset + limit : nil
        return JSONText.response(
            AssetListPage(
                assets: page, total: found.total, offset: after == nil ? offset : nil, limit: limit, nextOffset: nextOffset, next: next))
    }

    /// The still-image time of `asset`'s current version when it differs from the catalog's: for
    /// a Live Photo with a rendered movie, the render's own (read from the stored movie, so only
    /// edited Live Photos pay a read); nil (nothing to say) for every other asset.
    static func currentStillImageTime(
        of asset: Asset, resources: [LibraryAssetResource], in library: PhotoLibrary
    ) throws(LibraryError) -> Double?? {
        guard resources.contains(where: { $0.type == .fullSizePairedVideo }) else { return nil }
        return .some(try library.stillImageTime(for: asset, version: .current, resources: resources))
    }
}

private struct AssetListPage: Encodable {
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
