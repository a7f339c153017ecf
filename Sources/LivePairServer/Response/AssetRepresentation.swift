import Foundation
import LivePair
import LivePairLibrary

/// An asset as the API shows it, with the links to its originals and derivatives.
struct AssetRepresentation: Encodable {
    struct Links: Encodable {
        var placeholder: String
        var still: String
        var motion: String?
        var photo: String?
        var pairedVideo: String?
        var video: String?
    }

    struct Resource: Encodable {
        var type: String
        var size: UInt64
        var digest: String
        var originalFilename: String?
        var uniformTypeIdentifier: String?
    }

    var id: String
    var mediaType: String
    var isLivePhoto: Bool
    var pixelWidth: Int
    var pixelHeight: Int
    var duration: Double
    var creationDate: Date?
    var addedDate: Date
    var isFavorite: Bool
    var isHidden: Bool
    var contentIdentifier: String?
    /// The owner's description, when it has one.
    var caption: String?
    /// Edited: a render and adjustment data beside the original (`version` chooses).
    var hasAdjustments: Bool
    var resources: [Resource]
    var links: Links

    init(_ asset: Asset, resources: [LibraryAssetResource]) {
        id = asset.localIdentifier
        mediaType = asset.mediaType.description
        isLivePhoto = asset.isLivePhoto
        pixelWidth = asset.pixelWidth
        pixelHeight = asset.pixelHeight
        duration = asset.duration
        creationDate = asset.creationDate
        addedDate = asset.addedDate
        isFavorite = asset.isFavorite
        isHidden = asset.isHidden
        contentIdentifier = asset.contentIdentifier
        caption = asset.caption
        hasAdjustments = asset.hasAdjustments
        self.resources = resources.map {
            Resource(
                type: $0.type.rawValue, size: $0.size, digest: $0.digest.hex, originalFilename: $0.originalFilename,
                uniformTypeIdentifier: $0.uniformTypeIdentifier)
        }
        let base = "/v1/assets/" + Self.pathSegment(asset.localIdentifier)
        let types = Set(resources.map(\.type))
        links = Links(
            placeholder: base + "/placeholder.jpg", still: base + "/still.jpg",
            motion: asset.isLivePhoto ? base + "/motion.mp4" : nil,
            photo: types.contains(.photo) ? base + "/resources/photo" : nil,
            pairedVideo: types.contains(.pairedVideo) ? base + "/resources/pairedVideo" : nil,
            video: types.contains(.video) ? base + "/resources/video" : nil)
    }

    /// `identifier` percent-encoded for one path segment (local identifiers hold `/`).
    static func pathSegment(_ identifier: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return identifier.addingPercentEncoding(withAllowedCharacters: allowed) ?? identifier
    }
}

/// A finding as the API shows it (the path is the upload's name, never a server path).
struct FindingRepresentation: Encodable {
    var code: String
    var severity: String
    var message: String
    var hint: String

    init(_ finding: Finding) {
        code = finding.code.rawValue
        severity = finding.severity.rawValue
        message = finding.message
        hint = finding.hint
    }
}
