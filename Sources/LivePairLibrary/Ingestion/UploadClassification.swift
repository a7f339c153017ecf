import LivePair

/// What an upload is, as far as ingestion cares, decided from its identity.
enum UploadClassification: Equatable {
    /// Half of a Live Photo: a still (`.photo`) or a movie (`.pairedVideo`) with its content identifier.
    case livePhotoHalf(type: AssetResourceType, contentIdentifier: String)
    /// A file that is an asset on its own: a motion photo or plain photo (`.photo`), or a plain movie (`.video`).
    case standalone(type: AssetResourceType)
    /// A part of an edit, by its name (`IngestEditName`): a render (`.fullSizePhoto` for a still,
    /// `.fullSizePairedVideo` for a movie, made `.fullSizeVideo` when its original is a video) or
    /// adjustment data (`.adjustmentData`, or `.originalAdjustmentData` for the camera's
    /// `IMG_O1234.AAE`); it waits for its original's asset and is added to it.
    case editPart(type: AssetResourceType)
    /// Not acceptable, with the reasons: damage (`corrupt-file` and the integrity codes), not a
    /// photo or movie at all (`not-media`), or a loose file under a rejecting policy.
    case rejected([Finding])

    /// Classifies `identity`; `name` is how findings refer to the upload (its original name or ID),
    /// `editName` what its original filename says about an edit (nil without one).
    init(_ identity: ResourceIdentity, name: String, editName: IngestEditName? = nil, options: IngestOptions) {
        let damage = identity.damageFindings(path: name, name: name)
        // An .AAE with a name is an edit's adjustment data, kept byte for byte even when unreadable.
        if identity.role == .adjustmentData, let editName {
            self = .editPart(type: editName.part == .cameraAdjustments ? .originalAdjustmentData : .adjustmentData)
            return
        }
        if damage.isEmpty, editName?.part == .render, identity.format.isStill || identity.format.isMovie {
            self = .editPart(type: identity.format.isStill ? .fullSizePhoto : .fullSizePairedVideo)
            return
        }
        // An .AAE edit file is not media, readable or not: skipped, never rejected as damaged.
        if !damage.isEmpty && identity.role != .adjustmentData {
            self = .rejected(damage)
            return
        }
        switch identity.role {
        case .livePhotoStill:
            guard let identifier = identity.contentIdentifier?.rawValue else {
                self = Self.loose(.photo, name: name, policy: options.stillsWithoutIdentifier)
                return
            }
            self = .livePhotoHalf(type: .photo, contentIdentifier: identifier)
        case .livePhotoVideo:
            guard let identifier = identity.contentIdentifier?.rawValue else {
                self = Self.loose(.video, name: name, policy: options.moviesWithoutIdentifier)
                return
            }
            self = .livePhotoHalf(type: .pairedVideo, contentIdentifier: identifier)
        case .motionPhoto:
            self = .standalone(type: .photo)
        case .photo:
            self = Self.loose(.photo, name: name, policy: options.stillsWithoutIdentifier)
        case .video:
            self = Self.loose(.video, name: name, policy: options.moviesWithoutIdentifier)
        case .unknown, .adjustmentData:
            self = .rejected([
                Finding(.notMedia, path: name, message: "\(name) is not a photo or movie (no format LivePair reads)")
            ])
        }
    }

    private static func loose(_ type: AssetResourceType, name: String, policy: IngestOptions.LooseFilePolicy) -> Self {
        switch policy {
        case .importAsAsset:
            return .standalone(type: type)
        case .reject:
            return .rejected([
                Finding(
                    .missingContentIdentifier, path: name,
                    message: "\(name) carries no content identifier, so it cannot be half of a Live Photo")
            ])
        }
    }
}
