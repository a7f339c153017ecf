public import LivePairFormats

/// The still-image time a backend uses for a Live Photo pair whose movie has none, or one outside
/// the movie (`missing-still-image-time`, `still-image-time-out-of-range`): the video frame nearest
/// the photo's capture time on the movie's timeline (the movie's date is its start), else, without
/// usable dates, the middle frame. Photos still needs the track: `library export --for-photos`
/// writes it (restamp) with this time.
public enum StillImageTimeDerivation {
    /// The still-image time for `photo` and `movie`: the movie's own when it lies inside the movie
    /// (`isDerived` false), otherwise the derived one; nil when the movie's frames cannot be read.
    public static func stillImageTime(
        photo: ResourceIdentity, movie: ResourceIdentity, limits: ParseLimits = .default
    ) -> (seconds: Double, isDerived: Bool)? {
        if let own = movie.stillImageTime, own >= 0, own < (movie.duration ?? .infinity) { return (own, false) }
        guard let frames = MovieFrameTimes.read(path: movie.path, limits: limits), let last = frames.last else { return nil }
        let middle = frames[frames.count / 2]
        guard let photoDate = photo.captureDate, let movieDate = movie.captureDate else { return (middle, true) }
        let offset = photoDate.fillingUTCOffset(from: movieDate).seconds(since: movieDate)
        guard offset >= frames[0], offset <= last, let nearest = MovieFrameTimes.nearest(to: offset, in: frames) else {
            return (middle, true)
        }
        return (nearest.time, true)
    }
}
