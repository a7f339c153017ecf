import LivePairLibrary

extension LivePairService {
    /// Originals (`/resources/{type}`) and derivatives (`placeholder.jpg`, `still.jpg?size=N`,
    /// `motion.mp4?size=N`) of the token's owner's assets, with ETag, Range and Cache-Control.
    func resourceRoutes() -> [Route] {
        [
            Route(method: "GET", pattern: "/v1/assets/{id}/resources/{type}", authenticated: true, kind: .quick) {
                [self] context throws(HTTPError) in try original(context)
            },
            Route(method: "GET", pattern: "/v1/assets/{id}/placeholder.jpg", authenticated: true, kind: .blocking) {
                [self] context throws(HTTPError) in try derivative(.placeholder, context)
            },
            Route(method: "GET", pattern: "/v1/assets/{id}/still.jpg", authenticated: true, kind: .blocking) {
                [self] context throws(HTTPError) in
                try derivative(.still(size: try context.integer("size", in: Derivative.sizes, default: 1024)), context)
            },
            Route(method: "GET", pattern: "/v1/assets/{id}/motion.mp4", authenticated: true, kind: .blocking) {
                [self] context throws(HTTPError) in
                try derivative(.motion(size: try context.integer("size", in: Derivative.sizes, default: 720)), context)
            },
        ]
    }

    private func original(_ context: RouteContext) throws(HTTPError) -> HTTPResponse {
        let (_, resources) = try ownedAsset(context.parameter("id"), owner: context.owner)
        guard let type = AssetResourceType(rawValue: context.parameter("type")),
            let resource = resources.first(where: { $0.type == type })
        else { throw .notFound("the asset has no such resource") }
        let disposition = "attachment; filename=\"\(resource.exportFilename.filter { $0 != "\"" && $0 != "\\" && $0.isASCII })\""
        return try FileResponder.respond(
            to: context.request, path: library.storagePath(for: resource), etag: resource.digest.hex,
            contentType: Self.mediaType(of: resource.uniformTypeIdentifier), extraHeaders: [("Content-Disposition", disposition)])
    }

    private func derivative(_ derivative: Derivative, _ context: RouteContext) throws(HTTPError) -> HTTPResponse {
        let (asset, resources) = try ownedAsset(context.parameter("id"), owner: context.owner)
        let (path, key) = try derivatives.file(derivative, asset: asset, resources: resources)
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
