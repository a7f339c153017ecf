import LivePairFormats

/// The part of a movie a trim keeps, as the edit list of a re-muxed render shows it: from the
/// first video frame presented at or after the trim's start to the first one at or after its end
/// (or the movie's end), so the render shows the same frames the re-encoded render keeps
/// (`TrimmedFrames`), each for as long as the original shows it.
struct EditListWindow {
    /// The trim, in movie ticks.
    let trim: EditListTrim
    /// The window's start and end in seconds on the original movie's timeline.
    let range: ClosedRange<Double>
    /// Whether the original movie has a sound track.
    let hasSound: Bool
    /// The original movie's timescale (`mvhd`).
    let movieTimescale: UInt32

    /// The window of the movie at `path` keeping `requested` (seconds; an unbounded end keeps
    /// the rest of the movie), muted or not.
    init(moviePath path: String, requested: Range<Double>, muted: Bool, limits: ParseLimits) throws(PackagingError) {
        let movie: QuickTimeMovie
        do throws(FormatError) {
            movie = try QuickTimeMovieParser(limits: limits).parse(try FileByteSource(path: path))
        } catch {
            throw .format(error)
        }
        guard let video = movie.videoTrack else {
            throw .unsupportedVideo(path: path, reason: "the movie has no video track")
        }
        let times = video.presentationTimes(limit: Int(min(UInt64(video.samples.sampleCount), 4_000_000)))
        let tolerance = TrimmedFrames.tolerance
        let duration = movie.header.durationSeconds
        guard let start = times.first(where: { $0 >= requested.lowerBound - tolerance && $0 < duration }),
            start < requested.upperBound - tolerance
        else {
            throw .invalidArgument(
                "the trim range \(requested.lowerBound)-\(requested.upperBound) keeps no frame of \(path)")
        }
        let end = min(times.first { $0 >= requested.upperBound - tolerance } ?? duration, duration)
        let timescale = Double(movie.header.timescale)
        guard (end * timescale).rounded() < Double(Int64.max) else {
            throw .unsupportedVideo(path: path, reason: "the movie's duration does not fit its timescale")
        }
        let ticks = UInt64((start * timescale).rounded())..<UInt64((end * timescale).rounded())
        guard !ticks.isEmpty else {
            throw .invalidArgument("the trim range \(requested.lowerBound)-\(requested.upperBound) keeps no time of \(path)")
        }
        trim = EditListTrim(window: ticks, removesSound: muted, keepsOnlyNeededSamples: true)
        range = start...end
        hasSound = movie.tracks.contains { $0.handlerType == "soun" }
        movieTimescale = movie.header.timescale
    }
}
