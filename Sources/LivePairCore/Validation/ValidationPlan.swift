/// An asset before its rules run: the halves it has and the findings pairing already implies.
struct AssetPlan: Sendable {
    /// Live Photo or motion photo.
    var kind: AssetKind
    /// The identifier the asset is known by.
    var contentIdentifier: ContentIdentifier?
    /// The still (or the motion photo).
    var photo: AssetResource?
    /// The movie.
    var video: AssetResource?
    /// Findings decided while grouping (missing halves, mismatched identifiers, ambiguity).
    var findings: [Finding] = []

    /// The path that orders assets in the report.
    var sortKey: String { photo?.path ?? video?.path ?? "" }
}

/// A file outside every asset, before its rules run.
struct FilePlan: Sendable {
    /// The path.
    var path: String
    /// Its role (for duplicates whose identity is not given, the role of what they repeat).
    var role: ResourceRole
    /// The resource, when pairing kept its identity.
    var resource: AssetResource?
    /// Findings decided while grouping (duplicates, lost ambiguity).
    var findings: [Finding] = []
}

/// Turns a `PairingResult` into the assets and files validation reports, with the findings that
/// follow from pairing alone: missing halves, identifiers that differ between a still and a movie
/// of the same name, halves without identifiers, ambiguity and duplicates.
package struct ValidationPlan: Sendable {
    /// Assets in report order.
    private(set) var assets: [AssetPlan] = []
    /// Files in report order.
    private(set) var files: [FilePlan] = []

    init(_ result: PairingResult) {
        for pair in result.pairs {
            var asset = AssetPlan(
                kind: .livePhoto, contentIdentifier: pair.contentIdentifier, photo: pair.photo, video: pair.video)
            if pair.isWeak {
                for half in [pair.photo, pair.video] where half.contentIdentifier == nil {
                    let other = half.path == pair.photo.path ? pair.video : pair.photo
                    asset.findings.append(
                        Finding(
                            .missingContentIdentifier, path: half.path,
                            message: "\(Self.name(half.path)) was matched to \(Self.name(other.path)) by name and capture "
                                + "time only: it has no content identifier, so Photos will not pair them"))
                }
            }
            assets.append(asset)
        }
        for photo in result.motionPhotos {
            assets.append(AssetPlan(kind: .motionPhoto, contentIdentifier: nil, photo: photo, video: nil))
        }

        var orphanStills: [AssetPlan] = []
        var orphanMovies: [AssetPlan] = []
        var loose: [FilePlan] = []
        for unpaired in result.unpaired {
            let resource = unpaired.resource
            switch unpaired.reason {
            case .missingPairedVideo:
                orphanStills.append(
                    AssetPlan(kind: .livePhoto, contentIdentifier: resource.contentIdentifier, photo: resource, video: nil))
            case .missingPhoto:
                orphanMovies.append(
                    AssetPlan(kind: .livePhoto, contentIdentifier: resource.contentIdentifier, photo: nil, video: resource))
            case .noContentIdentifier, .unreadable, .notMedia, .lostAmbiguity:
                loose.append(FilePlan(path: resource.path, role: resource.role, resource: resource))
            }
        }
        matchByName(stills: &orphanStills, movies: &orphanMovies, loose: &loose)
        assets += orphanStills + orphanMovies

        var roles: [String: ResourceRole] = [:]
        for asset in assets {
            for half in [asset.photo, asset.video].compactMap({ $0 }) { roles[half.path] = half.role }
        }
        for file in loose { roles[file.path] = file.role }
        for group in result.duplicates {
            for duplicate in group.duplicates {
                let role: ResourceRole =
                    group.kind == .motionPhotoVideo ? .video : roles[group.original] ?? .unknown
                let message: String
                switch group.kind {
                case .sameFile:
                    message = "\(Self.name(duplicate)) is another path to the file \(group.original) (a hard or symbolic link)"
                case .identicalFile:
                    message = "\(Self.name(duplicate)) has the same bytes as \(group.original)"
                case .motionPhotoVideo:
                    message = "\(Self.name(duplicate)) is the video already embedded in the motion photo \(group.original) "
                        + "(Google Takeout exports it separately)"
                }
                let hint: String?
                switch group.kind {
                case .motionPhotoVideo: hint = "import only the motion photo; the separate movie would appear as an extra video"
                case .sameFile: hint = "nothing to fix if the link is wanted: the file is read and imported once"
                case .identicalFile: hint = nil
                }
                loose.append(
                    FilePlan(
                        path: duplicate, role: role, resource: nil,
                        findings: [Finding(.duplicateFile, path: duplicate, message: message, hint: hint)]))
            }
        }
        files = loose
        applyAmbiguity(result.ambiguous + Self.orphansSharingIdentifiers(result.unpaired))
        assets.sort { $0.sortKey < $1.sortKey }
        files.sort { $0.path < $1.path }
    }

    /// Pairs up orphans by folder and normalised stem to explain them: a still and a movie of the
    /// same name with different identifiers (`identifier-mismatch`), or an orphan next to a
    /// same-name file without an identifier (`missing-content-identifier`). Orphans left alone get
    /// `missing-pair-video` or `missing-pair-photo`.
    private func matchByName(stills: inout [AssetPlan], movies: inout [AssetPlan], loose: inout [FilePlan]) {
        var moviesByKey: [String: [Int]] = [:]
        for (index, movie) in movies.enumerated() {
            if let video = movie.video { moviesByKey[NameStem.key(video), default: []].append(index) }
        }
        // Loose files without identifier, indexed once by name key (in their order), so matching
        // costs one dictionary look-up per orphan instead of a scan of every loose file.
        var looseMoviesByKey: [String: [Int]] = [:]
        var looseStillsByKey: [String: [Int]] = [:]
        for (fileIndex, file) in loose.enumerated() {
            guard let resource = file.resource, resource.contentIdentifier == nil else { continue }
            if file.role == .video || resource.identity.format.isMovie {
                looseMoviesByKey[NameStem.key(resource), default: []].append(fileIndex)
            } else if resource.identity.format.isStill && resource.role == .photo {
                looseStillsByKey[NameStem.key(resource), default: []].append(fileIndex)
            }
        }
        var consumedLoose = Set<Int>()
        var absorbedMovies = Set<Int>()
        for index in stills.indices {
            guard let photo = stills[index].photo else { continue }
            let key = NameStem.key(photo)
            if let movieIndex = moviesByKey[key]?.first(where: { !absorbedMovies.contains($0) }),
                let video = movies[movieIndex].video
            {
                absorbedMovies.insert(movieIndex)
                stills[index].video = video
                stills[index].findings.append(
                    Finding(
                        .identifierMismatch, path: video.path,
                        message: "\(Self.name(photo.path)) carries the identifier \(Self.text(photo.contentIdentifier)) but "
                            + "\(Self.name(video.path)), which has the same name, carries \(Self.text(video.contentIdentifier)): "
                            + "Photos will not pair them"))
                continue
            }
            if let fileIndex = looseMoviesByKey[key]?.first(where: { !consumedLoose.contains($0) }),
                let video = loose[fileIndex].resource
            {
                consumedLoose.insert(fileIndex)
                stills[index].video = video
                stills[index].findings.append(
                    Finding(
                        .missingContentIdentifier, path: video.path,
                        message: "\(Self.name(video.path)) has the same name as the Live Photo still \(Self.name(photo.path)) "
                            + "but no content identifier, so Photos will not pair them"))
                continue
            }
            stills[index].findings.append(
                Finding(
                    .missingPairVideo, path: photo.path,
                    message: "the Live Photo still \(Self.name(photo.path)) (identifier \(Self.text(photo.contentIdentifier))) "
                        + "has no movie with the same identifier among the files given"))
        }
        movies = movies.enumerated().filter { !absorbedMovies.contains($0.offset) }.map(\.element)
        for index in movies.indices {
            guard let video = movies[index].video else { continue }
            let key = NameStem.key(video)
            if let fileIndex = looseStillsByKey[key]?.first(where: { !consumedLoose.contains($0) }),
                let photo = loose[fileIndex].resource
            {
                consumedLoose.insert(fileIndex)
                movies[index].photo = photo
                movies[index].findings.append(
                    Finding(
                        .missingContentIdentifier, path: photo.path,
                        message: "\(Self.name(photo.path)) has the same name as the Live Photo movie \(Self.name(video.path)) "
                            + "but no content identifier, so Photos will not pair them"))
                continue
            }
            movies[index].findings.append(
                Finding(
                    .missingPairPhoto, path: video.path,
                    message: "the Live Photo movie \(Self.name(video.path)) (identifier \(Self.text(video.contentIdentifier))) "
                        + "has no still with the same identifier among the files given"))
        }
        loose = loose.enumerated().filter { !consumedLoose.contains($0.offset) }.map(\.element)
    }

    /// Several orphan stills (or movies) with one identifier and no other half, as matches that
    /// chose nothing (`no-partner`): pairing lists them once, as orphans; validation warns that
    /// the missing half will have to choose.
    private static func orphansSharingIdentifiers(_ unpaired: [UnpairedResource]) -> [AmbiguousMatch] {
        var groups: [IdentifierKey: (identifier: ContentIdentifier, photos: [String], videos: [String])] = [:]
        for entry in unpaired {
            guard let identifier = entry.resource.contentIdentifier else { continue }
            switch entry.reason {
            case .missingPairedVideo: groups[IdentifierKey(identifier), default: (identifier, [], [])].photos.append(entry.resource.path)
            case .missingPhoto: groups[IdentifierKey(identifier), default: (identifier, [], [])].videos.append(entry.resource.path)
            default: continue
            }
        }
        return groups.sorted { $0.key < $1.key }.compactMap { _, group in
            guard group.photos.count + group.videos.count > 1 else { return nil }
            return AmbiguousMatch(
                contentIdentifier: group.identifier, photos: group.photos, videos: group.videos, chosen: nil,
                rule: AmbiguityRule.noPartner.rawValue)
        }
    }

    /// Adds `ambiguous-pair` to the asset chosen for each ambiguous identifier (or every asset
    /// carrying it) and to each candidate that lost.
    private mutating func applyAmbiguity(_ matches: [AmbiguousMatch]) {
        for match in matches {
            let candidates = (match.photos + match.videos).sorted()
            // Full paths: candidates usually share their names (copies in two folders).
            let list = candidates.joined(separator: ", ")
            var inAssets = Set<String>()
            for index in assets.indices where assets[index].contentIdentifier == match.contentIdentifier {
                let paths = [assets[index].photo?.path, assets[index].video?.path].compactMap { $0 }
                inAssets.formUnion(paths)
                let chosen = match.chosen.map { "\($0.photo.path) + \($0.video.path) was chosen by rule \(match.rule)" }
                    ?? "no pair could be chosen"
                assets[index].findings.append(
                    Finding(
                        .ambiguousPair, path: paths.first ?? "",
                        message: "\(candidates.count) files carry the identifier \(match.contentIdentifier): \(list); \(chosen)"))
            }
            for index in files.indices where candidates.contains(files[index].path) && !inAssets.contains(files[index].path) {
                let chosen = match.chosen.map { "\($0.photo.path) + \($0.video.path)" } ?? "another file"
                files[index].findings.append(
                    Finding(
                        .ambiguousPair, path: files[index].path,
                        message: "\(Self.name(files[index].path)) carries the identifier \(match.contentIdentifier) like "
                            + "\(list); it was left out because \(chosen) was chosen by rule \(match.rule)"))
            }
        }
    }

    /// The last path component.
    package static func name(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
    }

    /// An identifier for a message, or "none".
    static func text(_ identifier: ContentIdentifier?) -> String { identifier?.rawValue ?? "none" }
}
