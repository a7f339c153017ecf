import LivePairFormats

/// Turns Apple's iCloud Photos export (data and privacy: `iCloud Photos/Photos/`, `Photo
/// Details*.csv`, `Albums/<title>.csv`, `Memories/`) into assets, albums and an end for every file
/// (docs/exports.md, "iCloud Photos").
///
/// Media pair by content (`Pairing`: Live Photo halves by identifier, motion photos, duplicates).
/// A `Photo Details*.csv` row gives its file's favourite, hidden and creation date; `deleted`
/// files are not taken (`deleted`). The file's own capture date wins over the CSV's, which has
/// minutes only; the CSV's applies when the file has none. A movie without a row takes its still's.
/// An album CSV lists one `imgName` per line (a header line naming no file is skipped); its title
/// is the file's name without `.csv`. `Memories/` is reported and not read (`memories`).
public enum ICloudPlanner {
    /// The plan for `entries`.
    public static func plan(_ entries: [ExportEntry]) -> TakeoutPlan {
        var outcomes: [String: TakeoutFileOutcome] = [:]
        var identities: [ResourceIdentity] = []
        var details: [String: ICloudPhotoDetails] = [:]
        var albumLists: [(path: String, title: String, names: [String])] = []
        let reader = CSVReader()
        func ignore(_ entry: ExportEntry, _ reason: String) {
            outcomes[entry.path] = TakeoutFileOutcome(path: entry.path, location: entry.location, disposition: .ignored, reason: reason)
        }
        for entry in entries {
            let components = entry.path.split(separator: "/")
            let name = components.last.map(String.init) ?? entry.path
            let lower = name.lowercased()
            if components.dropLast().contains(where: { $0 == "Memories" }) {
                ignore(entry, "memories")
                continue
            }
            switch entry.content {
            case let .skipped(reason):
                ignore(entry, reason)
            case .json:
                ignore(entry, "not-a-sidecar")
            case let .identified(identity):
                guard lower.hasSuffix(".csv") else {
                    identities.append(identity)
                    continue
                }
                guard let source = try? FileByteSource(path: entry.file ?? entry.path), source.size <= 64 << 20,
                    let bytes = try? source.readExactly(at: 0, count: Int(source.size), context: entry.path),
                    let table = try? reader.rows(bytes)
                else {
                    ignore(entry, "unreadable-csv")
                    continue
                }
                if lower.hasPrefix("photo details") {
                    for row in ICloudPhotoDetails.rows(table) where details[row.name] == nil { details[row.name] = row }
                    outcomes[entry.path] = TakeoutFileOutcome(path: entry.path, location: entry.location, disposition: .sidecar)
                } else if components.dropLast().last == "Albums" {
                    albumLists.append((entry.path, String(name.dropLast(4)), table.compactMap { $0.first?.trimmingSpaces }))
                } else {
                    ignore(entry, "not-a-sidecar")
                }
            }
        }
        var plan = TakeoutPlan()
        var kept: [ResourceIdentity] = []
        for identity in identities {
            let name = identity.path.split(separator: "/").last.map(String.init) ?? identity.path
            if details[name]?.isDeleted == true {
                outcomes[identity.path] = TakeoutFileOutcome(
                    path: identity.path, location: identity.path, disposition: .ignored, reason: "deleted")
            } else if !isMedia(identity) {
                outcomes[identity.path] = TakeoutFileOutcome(
                    path: identity.path, location: identity.path, disposition: .ignored, reason: "not-media")
            } else {
                kept.append(identity)
            }
        }
        let locations = Dictionary(entries.map { ($0.path, $0.location) }, uniquingKeysWith: { first, _ in first })
        let result = Pairing.pair(kept.map(AssetResource.init))
        var assets: [TakeoutAsset] = []
        for pair in result.pairs {
            assets.append(
                TakeoutAsset(
                    kind: .livePhoto, photo: pair.photo.path, video: pair.video.path, pairedBy: .identifier,
                    contentIdentifier: pair.contentIdentifier, isFavorite: false, isHidden: false, albums: []))
        }
        for motion in result.motionPhotos {
            assets.append(TakeoutAsset(kind: .motionPhoto, photo: motion.path, isFavorite: false, isHidden: false, albums: []))
        }
        for single in result.unpaired {
            let isMovie = single.resource.identity.role == .video || single.resource.identity.role == .livePhotoVideo
            assets.append(
                TakeoutAsset(
                    kind: isMovie ? .video : .photo, photo: isMovie ? nil : single.resource.path,
                    video: isMovie ? single.resource.path : nil, isFavorite: false, isHidden: false, albums: []))
        }
        for group in result.duplicates {
            for copy in group.duplicates {
                outcomes[copy] = TakeoutFileOutcome(
                    path: copy, location: locations[copy] ?? copy, disposition: .ignored, asset: nil, reason: "duplicate")
            }
        }
        let byIdentity = Dictionary(kept.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        var assetOfName: [String: String] = [:]
        for index in assets.indices {
            let paths = [assets[index].photo, assets[index].video].compactMap { $0 }
            let names = paths.map { $0.split(separator: "/").last.map(String.init) ?? $0 }
            for name in names { assetOfName[name] = assets[index].primaryPath }
            let row = names.lazy.compactMap { details[$0] }.first
            assets[index].isFavorite = row?.isFavorite ?? false
            assets[index].isHidden = row?.isHidden ?? false
            let fileDate = paths.lazy.compactMap { byIdentity[$0]?.captureDate }.first
            if let fileDate {
                assets[index].creationDate = fileDate
                assets[index].creationDateSource = .file
            } else if let date = row?.creationDate {
                assets[index].creationDate = date
                assets[index].creationDateSource = .sidecar
            }
            assets[index].location = paths.lazy.compactMap { byIdentity[$0]?.location }.first
            for path in paths {
                outcomes[path] = TakeoutFileOutcome(
                    path: path, location: locations[path] ?? path, disposition: .media, asset: assets[index].primaryPath)
            }
        }
        for group in result.duplicates {
            for copy in group.duplicates { outcomes[copy]?.asset = assetOfName[group.original.split(separator: "/").last.map(String.init) ?? ""] }
        }
        for list in albumLists {
            var members: Set<String> = []
            for name in list.names { if let asset = assetOfName[name] { members.insert(asset) } }
            for index in assets.indices where members.contains(assets[index].primaryPath) { assets[index].albums.append(list.title) }
            plan.albums.append(TakeoutPlan.Album(folder: list.path, title: list.title, members: members.sorted()))
            outcomes[list.path] = TakeoutFileOutcome(
                path: list.path, location: locations[list.path] ?? list.path, disposition: .albumMetadata, album: list.title)
        }
        plan.assets = assets.sorted { $0.primaryPath < $1.primaryPath }
        plan.albums.sort { ($0.title, $0.folder) < ($1.title, $1.folder) }
        plan.files = outcomes.values.sorted { $0.path < $1.path }
        return plan
    }

    private static func isMedia(_ identity: ResourceIdentity) -> Bool {
        [.livePhotoStill, .livePhotoVideo, .motionPhoto, .photo, .video].contains(identity.role)
    }
}
