import Foundation
import LivePairLibrary

extension LivePairService {
    /// `GET /v1/assets` (paginated, fetch options as query parameters), `GET` and `DELETE
    /// /v1/assets/{id}`, `GET /v1/pending`: the token's owner's only.
    func assetRoutes() -> [Route] {
        [
            Route(method: "GET", pattern: "/v1/assets", authenticated: true, kind: .quick) { [self] context throws(HTTPError) in
                try listAssets(context)
            },
            Route(method: "GET", pattern: "/v1/assets/{id}", authenticated: true, kind: .quick) {
                [self] context throws(HTTPError) in
                let (asset, resources) = try ownedAsset(context.parameter("id"), owner: context.owner)
                return JSONText.response(try representation(asset, resources: resources))
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
    func representation(_ asset: Asset, resources: [LibraryAssetResource]) throws(HTTPError) -> AssetRepresentation {
        do throws(LibraryError) {
            return AssetRepresentation(asset, resources: resources, edit: try EditRepresentation.read(asset, in: library))
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

    private func listAssets(_ context: RouteContext) throws(HTTPError) -> HTTPResponse {
        let limit = try context.integer("limit", in: 1...1000, default: 100)
        let offset = try context.integer("offset", in: 0...Int(Int32.max), default: 0)
        let options = try AssetQueryParameters.fetchOptions(context.request.query, owner: context.owner)
        let page: [AssetRepresentation]
        let total: Int
        do throws(LibraryError) {
            let result = try library.fetchAssets(with: options)
            total = result.count
            var assets: [AssetRepresentation] = []
            for index in offset..<min(total, offset + limit) {
                let asset = try result.object(at: index)
                assets.append(
                    AssetRepresentation(
                        asset, resources: try library.assetResources(for: asset), edit: try EditRepresentation.read(asset, in: library)))
            }
            page = assets
        } catch {
            throw .internal("the catalog cannot be read", cause: error)
        }
        return JSONText.response(
            AssetPage(assets: page, total: total, offset: offset, limit: limit, nextOffset: offset + limit < total ? offset + limit : nil))
    }
}

private struct AssetPage: Encodable {
    var assets: [AssetRepresentation]
    var total: Int
    var offset: Int
    var limit: Int
    var nextOffset: Int?
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
