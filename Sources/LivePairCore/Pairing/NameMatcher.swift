/// The opt-in fallback (`PairingOptions.matchNames`): pairs stills and movies that both lack a
/// content identifier by folder, normalised stem and capture time. The pairs are weak.
struct NameMatcher {
    /// The options (tolerance, missing dates).
    let options: PairingOptions

    /// Pairs `stills` and `movies` (none with an identifier, each sorted by path); returns the weak
    /// pairs and the files left over.
    ///
    /// Within one folder and normalised stem, every (still, movie) combination whose capture times
    /// differ by at most the tolerance is a candidate (an unknown time only with
    /// `matchNamesWithoutCaptureDate`); candidates are taken nearest first (unknown times last,
    /// then by still path, then movie path), each file at most once.
    func match(
        stills: [AssetResource], movies: [AssetResource]
    ) -> (pairs: [LivePhotoPair], leftover: [AssetResource]) {
        struct Place: Hashable {
            let folder: String
            let stem: String
        }
        var moviesByPlace: [Place: [AssetResource]] = [:]
        for movie in movies {
            moviesByPlace[Place(folder: movie.folder, stem: movie.normalizedStem), default: []].append(movie)
        }
        var candidates: [(distance: Double, photo: AssetResource, video: AssetResource)] = []
        for still in stills {
            for movie in moviesByPlace[Place(folder: still.folder, stem: still.normalizedStem)] ?? [] {
                if let distance = still.captureSeconds(from: movie, tolerance: options.captureTimeTolerance) {
                    if distance <= options.captureTimeTolerance { candidates.append((distance, still, movie)) }
                } else if options.matchNamesWithoutCaptureDate {
                    candidates.append((.infinity, still, movie))
                }
            }
        }
        candidates.sort {
            ($0.distance, $0.photo.path, $0.video.path) < ($1.distance, $1.photo.path, $1.video.path)
        }
        var used = Set<String>()
        var pairs: [LivePhotoPair] = []
        for candidate in candidates where !used.contains(candidate.photo.path) && !used.contains(candidate.video.path) {
            used.insert(candidate.photo.path)
            used.insert(candidate.video.path)
            pairs.append(LivePhotoPair(contentIdentifier: nil, photo: candidate.photo, video: candidate.video, isWeak: true))
        }
        let leftover = (stills + movies).filter { !used.contains($0.path) }
        return (pairs, leftover)
    }
}
