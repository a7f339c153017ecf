import LivePairFormats

/// The plan of an export in any layout: `TakeoutPlanner` for Google Takeout, `ICloudPlanner` for
/// Apple's iCloud Photos export, `FolderExportPlanner` for LivePair's own `folder` export, and for the layouts whose files carry all that ties them (plain,
/// icloudpd, Image Capture, Smart Switch) one entry per file: each identified file is media of its
/// own (the library pairs halves by content identifier and joins edits by name), each other file
/// is ignored with its reason.
public enum ExportPlanner {
    /// The plan for `entries` read as `layout`.
    public static func plan(
        _ layout: ExportLayout, _ entries: [ExportEntry], contents: any ResourceContentSource = FileContentSource()
    ) -> TakeoutPlan {
        switch layout {
        case .takeout: return TakeoutPlanner.plan(entries, contents: contents)
        case .icloud: return ICloudPlanner.plan(entries)
        case .folder: return FolderExportPlanner.plan(entries)
        case .plain, .icloudpd, .imageCapture, .smartSwitch: return fileByFile(entries)
        }
    }

    /// One asset per identified file; JSON files `not-a-sidecar`; skipped entries with their reason.
    static func fileByFile(_ entries: [ExportEntry]) -> TakeoutPlan {
        var plan = TakeoutPlan()
        for entry in entries {
            var file = TakeoutFileOutcome(path: entry.path, location: entry.location, disposition: .ignored)
            switch entry.content {
            case let .skipped(reason):
                file.reason = reason
            case .json:
                file.reason = "not-a-sidecar"
            case let .identified(identity):
                let isMovie = identity.role == .video || identity.role == .livePhotoVideo
                plan.assets.append(
                    TakeoutAsset(
                        kind: identity.motionPhoto != nil ? .motionPhoto : (isMovie ? .video : .photo),
                        photo: isMovie ? nil : entry.path, video: isMovie ? entry.path : nil, isFavorite: false,
                        isHidden: false, albums: []))
                file.disposition = .media
                file.asset = entry.path
            }
            plan.files.append(file)
        }
        return plan
    }
}

extension ExportPlanner {
    /// The plan's assets as a pairing result, for `Validator`: a Live Photo's halves as a pair
    /// (weak when paired by stem and time), motion photos, and photos and movies alone; renders
    /// and files the plan did not take are left out.
    public static func pairingResult(_ plan: TakeoutPlan, entries: [ExportEntry]) -> PairingResult {
        var identities: [String: ResourceIdentity] = [:]
        for entry in entries {
            if case let .identified(identity) = entry.content { identities[entry.path] = identity }
        }
        var result = PairingResult()
        for asset in plan.assets {
            let photo = asset.photo.flatMap { identities[$0] }.map(AssetResource.init)
            let video = asset.video.flatMap { identities[$0] }.map(AssetResource.init)
            switch (asset.kind, photo, video) {
            case let (.livePhoto, photo?, video?):
                result.pairs.append(
                    LivePhotoPair(
                        contentIdentifier: asset.contentIdentifier, photo: photo, video: video, isWeak: asset.pairedBy == .stemAndTime))
            case let (.motionPhoto, photo?, _):
                result.motionPhotos.append(photo)
            default:
                for single in [photo, video].compactMap({ $0 }) {
                    let reason: UnpairedReason =
                        single.identity.role == .livePhotoStill
                        ? .missingPairedVideo : single.identity.role == .livePhotoVideo ? .missingPhoto : .noContentIdentifier
                    result.unpaired.append(UnpairedResource(resource: single, reason: reason))
                }
            }
        }
        return result
    }
}
