import LivePairFormats

/// The work of `TakeoutPlanner.plan`, step by step.
struct TakeoutPlanningState {
    private var outcomes: [String: TakeoutFileOutcome] = [:]
    private var locations: [String: String] = [:]
    private var identities: [String: ResourceIdentity] = [:]
    private var digests: [String: [UInt8]] = [:]
    private var embeddedVideoDigests: [String: [UInt8]] = [:]
    private var sidecars: [String: TakeoutMetadata] = [:]
    private var albumTitles: [String: String] = [:]
    /// media path -> (sidecar path, rule)
    private var sidecarOf: [String: (path: String, rule: TakeoutSidecarRule)] = [:]
    private var usedSidecars: Set<String> = []
    private var renderOf: [String: String] = [:]
    /// original path -> its render
    private var renderFor: [String: String] = [:]
    private var excluded: Set<String> = []
    private var assets: [TakeoutAsset] = []
    /// Paths of files that are duplicates of another: path -> the file they copy.
    private var duplicateOf: [String: String] = [:]

    init(entries: [ExportEntry], limits: ParseLimits) {
        let reader = JSONReader(limits: limits)
        for entry in entries {
            locations[entry.path] = entry.location
            switch entry.content {
            case let .skipped(reason):
                ignore(entry.path, reason)
            case let .identified(identity):
                identities[entry.path] = identity
                if let digest = entry.digest { digests[entry.path] = digest }
                if let digest = entry.embeddedVideoDigest { embeddedVideoDigests[entry.path] = digest }
            case let .json(bytes):
                guard let json = try? reader.read(bytes, context: entry.path) else {
                    ignore(entry.path, "unreadable-sidecar")
                    continue
                }
                if TakeoutMetadata.isMediaSidecar(json) {
                    sidecars[entry.path] = TakeoutMetadata(json: json)
                } else if TakeoutAlbumMetadata.isAlbumMetadataName(Self.name(entry.path)) {
                    guard let title = TakeoutAlbumMetadata.title(json) else {
                        ignore(entry.path, "album-without-title")
                        continue
                    }
                    let folder = Self.folder(entry.path)
                    if albumTitles[folder] == nil { albumTitles[folder] = title }
                    record(entry.path, .albumMetadata, album: title)
                } else {
                    ignore(entry.path, "not-a-sidecar")
                }
            }
        }
    }

    // MARK: Steps

    mutating func tieSidecars() {
        let mediaByFolder = Dictionary(grouping: identities.values.filter { Self.isMedia($0) }.map(\.path), by: Self.folder)
        let sidecarsByFolder = Dictionary(grouping: sidecars.keys, by: Self.folder)
        for (folder, media) in mediaByFolder {
            guard let jsons = sidecarsByFolder[folder] else { continue }
            let matches = TakeoutSidecarMatcher.match(jsonNames: jsons.map(Self.name), mediaNames: media.map(Self.name))
            for (mediaName, match) in matches {
                let sidecar = Self.join(folder, match.json)
                sidecarOf[Self.join(folder, mediaName)] = (sidecar, match.rule)
                usedSidecars.insert(sidecar)
            }
        }
    }

    mutating func setAsideTrashedAndRenders() {
        for (path, sidecar) in sidecarOf where sidecars[sidecar.path]?.isTrashed == true {
            excluded.insert(path)
            ignore(path, "trashed")
            record(sidecar.path, .sidecar)
        }
        let mediaByFolder = Dictionary(
            grouping: identities.values.filter { Self.isMedia($0) && !excluded.contains($0.path) }.map(\.path), by: Self.folder)
        for (folder, media) in mediaByFolder {
            // One render per original, the first by name; another stays an asset of its own.
            for (render, original) in TakeoutEditedRenders.originals(among: media.map(Self.name)).sorted(by: { $0.key < $1.key }) {
                let renderPath = Self.join(folder, render), originalPath = Self.join(folder, original)
                guard renderFor[originalPath] == nil else { continue }
                renderOf[renderPath] = originalPath
                renderFor[originalPath] = renderPath
                excluded.insert(renderPath)
            }
        }
    }

    mutating func pairFolders(contents: any ResourceContentSource) {
        let byFolder = Dictionary(grouping: identities.values.filter { !excluded.contains($0.path) }, by: { Self.folder($0.path) })
        for folder in byFolder.keys.sorted() {
            let result = Pairing.pair(byFolder[folder]!.map(AssetResource.init), contents: contents)
            for pair in result.pairs {
                assets.append(asset(.livePhoto, photo: pair.photo.path, video: pair.video.path, pairedBy: .identifier))
            }
            for photo in result.motionPhotos { assets.append(asset(.motionPhoto, photo: photo.path)) }
            for group in result.duplicates {
                for path in group.duplicates { duplicateOf[path] = group.original }
            }
            var stills: [TakeoutStemTimeMatcher.Candidate] = []
            var movies: [TakeoutStemTimeMatcher.Candidate] = []
            for unpaired in result.unpaired {
                switch unpaired.reason {
                case .notMedia: ignore(unpaired.resource.path, "not-media")
                case .unreadable: ignore(unpaired.resource.path, "unreadable")
                default:
                    let candidate = TakeoutStemTimeMatcher.Candidate(
                        resource: unpaired.resource,
                        date: unpaired.resource.identity.captureDate ?? metadata(of: unpaired.resource.path)?.takenDate)
                    if unpaired.resource.identity.format.isMovie { movies.append(candidate) } else { stills.append(candidate) }
                }
            }
            let pairs = TakeoutStemTimeMatcher.pairs(stills: stills, movies: movies, tolerance: TakeoutPlanner.pairingTolerance)
            var paired: Set<String> = []
            for (still, movie) in pairs {
                var live = asset(.livePhoto, photo: still.path, video: movie.path, pairedBy: .stemAndTime)
                live.contentIdentifier = still.contentIdentifier ?? movie.contentIdentifier
                assets.append(live)
                paired.formUnion([still.path, movie.path])
            }
            for still in stills where !paired.contains(still.resource.path) { assets.append(asset(.photo, photo: still.resource.path)) }
            for movie in movies where !paired.contains(movie.resource.path) { assets.append(asset(.video, video: movie.resource.path)) }
        }
    }

    /// A loose movie of an archive part whose bytes are a motion photo's embedded video in the same
    /// folder (Takeout splits motion photos into JPG + MP4; pairing case 8) is that photo's
    /// duplicate, not an asset. (Among files read from folders `Pairing` finds these by content.)
    mutating func foldSplitMotionVideos() {
        var embedded: [String: String] = [:]
        for asset in assets where asset.kind == .motionPhoto {
            guard let photo = asset.photo, let digest = embeddedVideoDigests[photo],
                let length = identities[photo]?.motionPhoto?.videoLength
            else { continue }
            embedded[Self.folder(photo) + "|" + String(length) + "|" + digest.map(String.init).joined(separator: ".")] = photo
        }
        guard !embedded.isEmpty else { return }
        assets.removeAll { asset in
            guard asset.kind == .video, let video = asset.video, let digest = digests[video],
                let size = identities[video]?.fileSize,
                let photo = embedded[Self.folder(video) + "|" + String(size) + "|" + digest.map(String.init).joined(separator: ".")]
            else { return false }
            duplicateOf[video] = photo
            return true
        }
    }

    /// One asset in several folders, or twice under two names: the same bytes (archive members,
    /// whose digests were computed as they streamed by), else the same file names and sizes
    /// (files read from folders). Kept once, preferring a copy outside album folders, then the
    /// first by path; the copies' folders add their albums.
    mutating func mergeCopies() {
        func key(_ asset: TakeoutAsset) -> [String] {
            [asset.photo, asset.video].map { path in
                guard let path else { return "-" }
                let size = String(identities[path]?.fileSize ?? 0)
                guard let digest = digests[path] else { return "name:" + Self.name(path) + ":" + size }
                return "bytes:" + digest.map(String.init).joined(separator: ".") + ":" + size
            }
        }
        let sorted = assets.sorted {
            (albumTitles[Self.folder($0.primaryPath)] != nil ? 1 : 0, $0.primaryPath)
                < (albumTitles[Self.folder($1.primaryPath)] != nil ? 1 : 0, $1.primaryPath)
        }
        var kept: [[String]: Int] = [:]
        var merged: [TakeoutAsset] = []
        for asset in sorted {
            if let index = kept[key(asset)] {
                for path in [asset.photo, asset.video, asset.render].compactMap({ $0 }) {
                    duplicateOf[path] = [merged[index].photo, merged[index].video].compactMap { $0 }.first {
                        Self.name($0) == Self.name(path)
                    } ?? merged[index].primaryPath
                }
                merged[index].albums += asset.albums
                continue
            }
            kept[key(asset)] = merged.count
            merged.append(asset)
        }
        assets = merged
    }

    mutating func finish() -> TakeoutPlan {
        var assetOfPath: [String: String] = [:]
        for index in assets.indices {
            applyMetadata(&assets[index])
            assets[index].albums = Array(Set(assets[index].albums)).sorted()
            let asset = assets[index]
            for path in [asset.photo, asset.video, asset.render].compactMap({ $0 }) {
                assetOfPath[path] = asset.primaryPath
                record(path, .media, asset: asset.primaryPath)
            }
        }
        for (path, original) in duplicateOf {
            var root = original
            while let next = duplicateOf[root], next != root { root = next }
            var outcome = outcome(path, .ignored)
            outcome.reason = "duplicate"
            outcome.asset = assetOfPath[root]
            outcomes[path] = outcome
        }
        for (media, sidecar) in sidecarOf where !excluded.contains(media) || renderOf[media] != nil {
            let owner = assetOfPath[media] ?? duplicateOf[media].flatMap { assetOfPath[$0] }
            if outcomes[sidecar.path] == nil || outcomes[sidecar.path]?.asset == nil { record(sidecar.path, .sidecar, asset: owner) }
        }
        for path in sidecars.keys where !usedSidecars.contains(path) { ignore(path, "sidecar-without-media") }
        for path in identities.keys where outcomes[path] == nil { ignore(path, "not-media") }
        var plan = TakeoutPlan()
        plan.assets = assets.sorted { $0.primaryPath < $1.primaryPath }
        plan.files = outcomes.values.sorted { $0.path < $1.path }
        var members: [String: [String]] = [:]
        for asset in plan.assets {
            for title in asset.albums { members[title, default: []].append(asset.primaryPath) }
        }
        plan.albums = albumTitles.map { folder, title in
            TakeoutPlan.Album(folder: folder, title: title, members: (members[title] ?? []).sorted())
        }.sorted { ($0.title, $0.folder) < ($1.title, $1.folder) }
        return plan
    }

    // MARK: Parts

    private func asset(
        _ kind: TakeoutAsset.Kind, photo: String? = nil, video: String? = nil, pairedBy: TakeoutAsset.PairedBy? = nil
    ) -> TakeoutAsset {
        let paths = [photo, video].compactMap { $0 }
        let render = paths.lazy.compactMap { renderFor[$0] }.first
        var identifier: ContentIdentifier?
        if pairedBy == .identifier, let photo { identifier = identities[photo]?.contentIdentifier }
        let albums = paths.compactMap { albumTitles[Self.folder($0)] }
        return TakeoutAsset(
            kind: kind, photo: photo, video: video, render: render, pairedBy: pairedBy, contentIdentifier: identifier,
            sidecar: nil, sidecarRule: nil, creationDate: nil, creationDateSource: nil, location: nil, isFavorite: false,
            isHidden: false, caption: nil, albums: albums)
    }

    /// The sidecar that applies to `asset`: the still's, else the movie's, else the render's
    /// original's; sets the asset's metadata from it and from the files.
    private func applyMetadata(_ asset: inout TakeoutAsset) {
        let tied = [asset.photo, asset.video].compactMap { $0 }.lazy.compactMap { sidecarOf[$0] }.first
        if let tied, let metadata = sidecars[tied.path] {
            asset.sidecar = tied.path
            asset.sidecarRule = tied.rule
            asset.isFavorite = metadata.isFavorite
            asset.isHidden = metadata.isArchived
            asset.caption = metadata.caption
            asset.location = metadata.location
            if let date = metadata.takenDate {
                asset.creationDate = date
                asset.creationDateSource = .sidecar
            }
        }
        let files = [asset.photo, asset.video].compactMap { $0 }.compactMap { identities[$0] }
        // `photoTakenTime` has whole seconds: a file date with its UTC offset in that same second
        // is the same moment, told more precisely (a LivePair google-photos export writes both).
        if asset.creationDateSource == .sidecar, let sidecarDate = asset.creationDate,
            let precise = files.lazy.compactMap(\.captureDate).first(where: {
                guard $0.utcOffsetMinutes != nil else { return false }
                let after = $0.seconds(since: sidecarDate)
                return after >= 0 && after < 1
            })
        {
            asset.creationDate = precise
            asset.creationDateSource = .file
        }
        if asset.creationDate == nil, let date = files.lazy.compactMap(\.captureDate).first {
            asset.creationDate = date
            asset.creationDateSource = .file
        }
        if asset.location == nil { asset.location = files.lazy.compactMap(\.location).first }
    }

    private func metadata(of path: String) -> TakeoutMetadata? { sidecarOf[path].flatMap { sidecars[$0.path] } }

    private func outcome(_ path: String, _ disposition: TakeoutFileOutcome.Disposition) -> TakeoutFileOutcome {
        TakeoutFileOutcome(path: path, location: locations[path] ?? path, disposition: disposition, asset: nil, album: nil, reason: nil)
    }

    private mutating func record(
        _ path: String, _ disposition: TakeoutFileOutcome.Disposition, asset: String? = nil, album: String? = nil
    ) {
        var outcome = outcome(path, disposition)
        outcome.asset = asset
        outcome.album = album
        outcomes[path] = outcome
    }

    private mutating func ignore(_ path: String, _ reason: String) {
        var outcome = outcome(path, .ignored)
        outcome.reason = reason
        outcomes[path] = outcome
    }

    static func isMedia(_ identity: ResourceIdentity) -> Bool {
        identity.role != .unknown && identity.role != .adjustmentData
    }

    static func folder(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    static func name(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    static func join(_ folder: String, _ name: String) -> String { folder.isEmpty ? name : folder + "/" + name }
}
