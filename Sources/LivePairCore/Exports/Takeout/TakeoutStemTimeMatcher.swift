import LivePairFormats

/// Pairs the halves of a Live Photo whose content identifier did not survive Takeout (Google
/// re-encodes some movies without it): a still and a movie of one folder with the same normalised
/// stem (Pixel's `.MP` dropped) whose capture times are at most `tolerance` seconds apart. A file
/// without a known time is never paired so; halves whose identifiers differ never pair.
enum TakeoutStemTimeMatcher {
    struct Candidate {
        let resource: AssetResource
        let date: CaptureDate?
    }

    /// The pairs among `stills` and `movies` of one folder, nearest times first, each file at most once.
    static func pairs(stills: [Candidate], movies: [Candidate], tolerance: Double) -> [(still: AssetResource, movie: AssetResource)] {
        var options: [(distance: Double, still: Int, movie: Int)] = []
        for (stillIndex, still) in stills.enumerated() {
            guard let stillDate = still.date else { continue }
            for (movieIndex, movie) in movies.enumerated() {
                guard let movieDate = movie.date, stem(still.resource) == stem(movie.resource) else { continue }
                if let a = still.resource.contentIdentifier, let b = movie.resource.contentIdentifier, a != b { continue }
                let distance = abs(stillDate.seconds(since: movieDate))
                if distance <= tolerance { options.append((distance, stillIndex, movieIndex)) }
            }
        }
        options.sort {
            ($0.distance, stills[$0.still].resource.path, movies[$0.movie].resource.path)
                < ($1.distance, stills[$1.still].resource.path, movies[$1.movie].resource.path)
        }
        var usedStills: Set<Int> = []
        var usedMovies: Set<Int> = []
        var result: [(AssetResource, AssetResource)] = []
        for option in options where !usedStills.contains(option.still) && !usedMovies.contains(option.movie) {
            usedStills.insert(option.still)
            usedMovies.insert(option.movie)
            result.append((stills[option.still].resource, movies[option.movie].resource))
        }
        return result
    }

    /// The normalised stem, with Pixel's `.MP` (`PXL_x.MP.jpg`) dropped.
    static func stem(_ resource: AssetResource) -> String {
        var stem = StemNormalizer.normalize(resource.stem)
        if stem.hasSuffix(".mp") { stem.removeLast(3) }
        return stem
    }
}
