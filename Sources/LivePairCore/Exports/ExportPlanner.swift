import LivePairFormats

/// The plan of an export in any layout: `TakeoutPlanner` for Google Takeout, `ICloudPlanner` for
/// Apple's iCloud Photos export, and for the layouts whose files carry all that ties them (plain,
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
