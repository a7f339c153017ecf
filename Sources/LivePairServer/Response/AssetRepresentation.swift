import Foundation
import LivePair
import LivePairLibrary

/// An asset as the API shows it, with the links to its originals and derivatives.
struct AssetRepresentation: Encodable {
    struct Links: Encodable {
        var placeholder: String
        var still: String
        var motion: String?
        /// A plain video's copy that browsers play (`playback.mp4`, H.264).
        var playback: String?
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

    /// Where it was taken.
    struct Location: Encodable {
        var latitude: Double
        var longitude: Double
    }

    /// A derivative whose background job failed: the page shows the cause instead of the image.
    struct DerivativeFailure: Encodable {
        /// `placeholder`, `still`, `motion` or (a plain video's) `playback`.
        var derivative: String
        var message: String
    }

    var id: String
    var mediaType: String
    /// `AssetMediaSubtypes.names` (`photoLive`, `photoHDR`, ...).
    var mediaSubtypes: [String]
    var isLivePhoto: Bool
    /// A Live Photo whose movie is inside the still (an Android motion photo), not a paired file.
    var isMotionPhoto: Bool
    var pixelWidth: Int
    var pixelHeight: Int
    var duration: Double
    /// A Live Photo's key photo on its movie's timeline, in seconds, of the version shown
    /// (`current`: an edited Live Photo's rendered movie); nil otherwise.
    var stillImageTime: Double?
    /// The original's key photo time (`Asset.stillImageTime`), when an edit rendered the movie
    /// (`stillImageTime` is then the render's).
    var originalStillImageTime: Double?
    var creationDate: Date?
    var addedDate: Date
    /// What the list is ordered by: `creationDate`, else `addedDate`.
    var dateTaken: Date
    var location: Location?
    var isFavorite: Bool
    var isHidden: Bool
    var contentIdentifier: String?
    /// The owner's description, when it has one.
    var caption: String?
    /// Edited: a render and adjustment data beside the original (`version` chooses).
    var hasAdjustments: Bool
    /// The edit's summary (format, operations, key photo time, ...), for an edited asset.
    var edit: EditRepresentation?
    var resources: [Resource]
    var links: Links
    /// The derivatives that could not be made (empty when none failed).
    var derivativeFailures: [DerivativeFailure]
    /// Read from the original's headers: only `GET /v1/assets/{id}` carries it.
    var metadata: AssetFileMetadata?

    init(
        _ asset: Asset, resources: [LibraryAssetResource], edit: EditRepresentation? = nil,
        currentStillImageTime: Double?? = nil, derivativeFailures: [DerivativeFailure] = [],
        metadata: AssetFileMetadata? = nil
    ) {
        id = asset.localIdentifier
        mediaType = asset.mediaType.description
        mediaSubtypes = asset.mediaSubtypes.names
        isLivePhoto = asset.isLivePhoto
        isMotionPhoto = asset.isLivePhoto && !resources.contains { $0.type == .pairedVideo }
        pixelWidth = asset.pixelWidth
        pixelHeight = asset.pixelHeight
        duration = asset.duration
        stillImageTime = asset.stillImageTime
        if resources.contains(where: { $0.type == .fullSizePairedVideo }), let current = currentStillImageTime {
            stillImageTime = current
            originalStillImageTime = asset.stillImageTime
        }
        creationDate = asset.creationDate
        addedDate = asset.addedDate
        dateTaken = asset.dateTaken
        location = asset.location.map { Location(latitude: $0.latitude, longitude: $0.longitude) }
        self.derivativeFailures = derivativeFailures
        self.metadata = metadata
        isFavorite = asset.isFavorite
        isHidden = asset.isHidden
        contentIdentifier = asset.contentIdentifier
        caption = asset.caption
        hasAdjustments = asset.hasAdjustments
        self.edit = edit
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
            playback: LibraryDerivatives.isPlainVideo(asset) ? base + "/playback.mp4" : nil,
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
