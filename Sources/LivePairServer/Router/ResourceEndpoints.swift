import LivePair
import LivePairLibrary

extension LivePairService {
    /// Originals (`/resources/{type}`) and derivatives (`placeholder.jpg`, `still.jpg?size=N`,
    /// `motion.mp4?size=N`, a plain video's `playback.mp4?size=N`) of the token's owner's assets, with ETag, Range and Cache-Control;
    /// `version=current|unadjusted|original` chooses an edited asset's version (docs/editing.md).
    func resourceRoutes() -> [Route] {
        [
            originalRoute(),
            derivativeRoute("placeholder.jpg") { _, _, _, _ throws(HTTPError) in .placeholder },
            derivativeRoute("still.jpg") { context, asset, _, _ throws(HTTPError) in
                .still(DerivativeMaker.stillSize(try context.integer("size", in: Derivative.sizes, default: 1024), asset: asset))
            },
            // Clamped to the movie's own size: `size=2048` and `size=4096` of a 1920x1440 movie are one file.
            derivativeRoute("motion.mp4") { [self] context, asset, resources, onlyCached throws(HTTPError) in
                let requested = try context.integer("size", in: Derivative.sizes, default: 720)
                return derivatives.motionSize(requested, asset: asset, resources: resources, onlyKnown: onlyCached).map(Derivative.motion)
            },
            // A plain video's copy that browsers play (H.264), sized as the motion.
            derivativeRoute("playback.mp4") { [self] context, asset, resources, onlyCached throws(HTTPError) in
                let requested = try context.integer("size", in: Derivative.sizes, default: 720)
                return derivatives.motionSize(requested, asset: asset, resources: resources, onlyKnown: onlyCached).map(Derivative.playback)
            },
        ]
    }

    /// A derivative's route: answered from the cache on the daemon's thread when it is there,
    /// else made on the work queue. `derivative` gives what to serve for the asset and the
    /// resources of the version asked for (nil: not known without blocking, when only cached).
    private func derivativeRoute(
        _ name: String,
        _ derivative: @escaping @Sendable (RouteContext, Asset, [LibraryAssetResource], _ onlyCached: Bool) throws(HTTPError) -> Derivative?
    ) -> Route {
        var route = Route(method: "GET", pattern: "/v1/assets/{id}/" + name, authenticated: true, kind: .blocking) {
            [self] context throws(HTTPError) in
            guard let response = try self.derivative(derivative, context, onlyCached: false) else {
                throw .internal("the derivative was not made")
            }
            return response
        }
        route.respondWithoutBlocking = { [self] context throws(HTTPError) in
            try self.derivative(derivative, context, onlyCached: true)
        }
        return route
    }

    /// An original: sent from the stored file on the daemon's thread for a directory store; for
    /// an S3 store, on the work queue: a range with a ranged GET (nothing else fetched), the whole
    /// original from this node's cached copy (fetched once).
    private func originalRoute() -> Route {
        var route = Route(method: "GET", pattern: "/v1/assets/{id}/resources/{type}", authenticated: true, kind: .blocking) {
            [self] context throws(HTTPError) in try original(context)
        }
        route.respondWithoutBlocking = { [self] context throws(HTTPError) in
            library.resourcesAreLocalFiles ? try original(context) : nil
        }
        return route
    }

    /// The resource of the asset with the path's type; with `version`, of the resources as that
    /// version shows them (`resources/photo?version=current` is an edited photo's render).
    private func original(_ context: RouteContext) throws(HTTPError) -> HTTPResponse {
        let (_, stored) = try ownedAsset(context.parameter("id"), owner: context.owner)
        let resources = context.request.query["version"] == nil ? stored : stored.shown(as: try context.version(default: .original))
        guard let type = AssetResourceType(rawValue: context.parameter("type")),
            let resource = resources.first(where: { $0.type == type })
        else { throw .notFound("the asset has no such resource") }
        let disposition = ContentDisposition.attachment(filename: resource.exportFilename)
        let contentType = Self.mediaType(of: resource.uniformTypeIdentifier)
        if library.resourcesAreLocalFiles {
            return try FileResponder.respond(
                to: context.request, path: try library.storedFile(for: resource), etag: resource.digest.hex,
                contentType: contentType, extraHeaders: [("Content-Disposition", disposition)])
        }
        return try FileResponder.respond(
            to: context.request, size: Int64(resource.size), etag: resource.digest.hex, contentType: contentType,
            extraHeaders: [("Content-Disposition", disposition)]
        ) { range throws(HTTPError) in
            if let range, range.upperBound - range.lowerBound < Self.rangedReadLimit {
                return .bytes(try library.read(resource, range: range))
            }
            let path = try library.storedFile(for: resource)
            let offset = range?.lowerBound ?? 0
            return .file(path: path, offset: offset, length: (range?.upperBound ?? Int64(resource.size) - 1) - offset + 1)
        }
    }

    /// The longest range of an original in an S3 store read with a ranged GET into memory; a
    /// longer one is sent from this node's cached copy.
    static let rangedReadLimit: Int64 = 16 << 20

    /// The derivative's file response; nil when `onlyCached` and it is not made yet.
    private func derivative(
        _ kind: (RouteContext, Asset, [LibraryAssetResource], Bool) throws(HTTPError) -> Derivative?, _ context: RouteContext,
        onlyCached: Bool
    ) throws(HTTPError) -> HTTPResponse? {
        let (asset, stored) = try ownedAsset(context.parameter("id"), owner: context.owner)
        // The current version (an edit's render) unless `version` asks for the original.
        let resources = stored.shown(as: try context.version(default: .current))
        guard let derivative = try kind(context, asset, resources, onlyCached) else { return nil }
        let found = onlyCached
            ? derivatives.cachedFile(derivative, resources: resources)
            : try derivatives.file(derivative, asset: asset, resources: resources)
        guard let (path, key) = found else { return nil }
        return try FileResponder.respond(to: context.request, path: path, etag: key, contentType: derivative.contentType)
    }

    /// The MIME type of a uniform type identifier.
    static func mediaType(of identifier: String?) -> String {
        switch identifier {
        case "public.jpeg"?: return "image/jpeg"
        case "public.heic"?: return "image/heic"
        case "public.avif"?: return "image/avif"
        case "public.png"?: return "image/png"
        case "public.tiff"?: return "image/tiff"
        case "com.apple.quicktime-movie"?: return "video/quicktime"
        case "public.mpeg-4"?: return "video/mp4"
        default: return "application/octet-stream"
        }
    }
}
