import LivePairFormats

/// The presentation times of a movie's main video frames, read again from its `moov` (cheap: no
/// sample data is read). Used to check that the still-image time falls on a frame.
enum MovieFrameTimes {
    /// The movie-timeline times of the video frames of the movie at `path`, sorted; nil when the
    /// movie cannot be parsed or has no video track.
    static func read(path: String, limits: ParseLimits) -> [Double]? {
        guard let source = try? FileByteSource(path: path),
            let movie = try? QuickTimeMovieParser(limits: limits).parse(source),
            let track = movie.videoTrack
        else { return nil }
        let times = track.presentationTimes()
        return times.isEmpty ? nil : times
    }

    /// The frame nearest `time` in `times` (sorted), its distance, and the local frame interval:
    /// the gap between the frames either side of `time` (at the ends, between the two first or
    /// the two last frames); nil for fewer than two frames.
    static func nearest(to time: Double, in times: [Double]) -> (time: Double, distance: Double, interval: Double)? {
        guard times.count >= 2 else { return nil }
        var low = 0, high = times.count
        while low < high {
            let middle = (low + high) / 2
            if times[middle] < time { low = middle + 1 } else { high = middle }
        }
        // times[low] is the first frame at or after `time`.
        let after = min(max(low, 1), times.count - 1)
        let interval = times[after] - times[after - 1]
        var best = (time: times[after], distance: abs(times[after] - time))
        if abs(times[after - 1] - time) < best.distance { best = (times[after - 1], abs(times[after - 1] - time)) }
        if low == times.count, abs(times[times.count - 1] - time) < best.distance {
            best = (times[times.count - 1], abs(times[times.count - 1] - time))
        }
        return (best.time, best.distance, interval)
    }
}
