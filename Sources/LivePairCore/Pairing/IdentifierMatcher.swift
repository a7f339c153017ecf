/// Pairs stills and movies that carry the same content identifier (compared byte for byte),
/// whatever their names. Names play a part only in choosing between several candidates.
struct IdentifierMatcher {
    /// The tolerance used to recognise time-zone differences when comparing capture times.
    let captureTimeTolerance: Double

    /// What matching produced.
    struct Outcome {
        var pairs: [LivePhotoPair] = []
        var unpaired: [UnpairedResource] = []
        var ambiguous: [AmbiguousMatch] = []
    }

    /// Matches `stills` and `movies`, each with a content identifier and sorted by path.
    ///
    /// Per identifier: one still and one movie pair. A still without a movie is an orphan
    /// (`missing-paired-video`), a movie without a still too (`missing-photo`). Several candidates
    /// with both kinds present are an `AmbiguousMatch`: one pair is chosen by the `AmbiguityRule`
    /// order and the other candidates are `lost-ambiguity`. With one kind only nothing is chosen:
    /// every candidate is an orphan, listed once (no ambiguity is reported until there is a choice).
    func match(stills: [AssetResource], movies: [AssetResource]) -> Outcome {
        var groups: [IdentifierKey: (identifier: ContentIdentifier, photos: [AssetResource], videos: [AssetResource])] = [:]
        for still in stills {
            guard let identifier = still.contentIdentifier else { continue }
            groups[IdentifierKey(identifier), default: (identifier, [], [])].photos.append(still)
        }
        for movie in movies {
            guard let identifier = movie.contentIdentifier else { continue }
            groups[IdentifierKey(identifier), default: (identifier, [], [])].videos.append(movie)
        }
        var outcome = Outcome()
        // Dictionary order varies between runs; the engine sorts every list of the result.
        for group in groups.values {
            resolve(group.identifier, photos: group.photos, videos: group.videos, into: &outcome)
        }
        return outcome
    }

    private func resolve(
        _ identifier: ContentIdentifier, photos: [AssetResource], videos: [AssetResource], into outcome: inout Outcome
    ) {
        if photos.count == 1, videos.count == 1 {
            outcome.pairs.append(LivePhotoPair(contentIdentifier: identifier, photo: photos[0], video: videos[0], isWeak: false))
            return
        }
        guard !photos.isEmpty, !videos.isEmpty else {
            outcome.unpaired += photos.map { UnpairedResource(resource: $0, reason: .missingPairedVideo) }
            outcome.unpaired += videos.map { UnpairedResource(resource: $0, reason: .missingPhoto) }
            return
        }
        let photoPaths = photos.map(\.path)
        let videoPaths = videos.map(\.path)
        let (photo, video, rule) = choose(photos: photos, videos: videos)
        let chosen = LivePhotoPair(contentIdentifier: identifier, photo: photo, video: video, isWeak: false)
        outcome.pairs.append(chosen)
        outcome.unpaired += photos.filter { $0.path != photo.path }.map { UnpairedResource(resource: $0, reason: .lostAmbiguity) }
        outcome.unpaired += videos.filter { $0.path != video.path }.map { UnpairedResource(resource: $0, reason: .lostAmbiguity) }
        outcome.ambiguous.append(
            AmbiguousMatch(
                contentIdentifier: identifier, photos: photoPaths, videos: videoPaths, chosen: chosen, rule: rule.rawValue))
    }

    /// One (still, movie) combination.
    typealias Candidate = (photo: AssetResource, video: AssetResource)

    /// Chooses one (still, movie) pair among all combinations by the `AmbiguityRule` order.
    /// `photos` and `videos` are sorted by path, so the combinations are in first-by-path order.
    func choose(
        photos: [AssetResource], videos: [AssetResource]
    ) -> (photo: AssetResource, video: AssetResource, rule: AmbiguityRule) {
        var candidates: [Candidate] = photos.flatMap { photo in videos.map { (photo, $0) } }
        let narrowings: [(rule: AmbiguityRule, keep: ([Candidate]) -> [Candidate])] = [
            (.sameFolder, { $0.filter { $0.photo.folder == $0.video.folder } }),
            (.sameStem, { $0.filter { $0.photo.normalizedStem == $0.video.normalizedStem } }),
            (.nearestCaptureTime, nearestInTime),
        ]
        for narrowing in narrowings {
            let narrowed = narrowing.keep(candidates)
            guard !narrowed.isEmpty, narrowed.count < candidates.count else { continue }
            candidates = narrowed
            if candidates.count == 1 { return (candidates[0].photo, candidates[0].video, narrowing.rule) }
        }
        return (candidates[0].photo, candidates[0].video, .firstByPath)
    }

    /// The candidates whose capture times are nearest; all of them when no time difference is known.
    private func nearestInTime(_ candidates: [Candidate]) -> [Candidate] {
        let distances = candidates.map { $0.photo.captureSeconds(from: $0.video, tolerance: captureTimeTolerance) }
        guard let nearest = distances.compactMap({ $0 }).min() else { return candidates }
        return zip(candidates, distances).filter { $0.1 == nearest }.map(\.0)
    }
}
