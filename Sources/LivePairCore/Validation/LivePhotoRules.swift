import LivePairFormats

/// Rules about a Live Photo's movie and about the two halves together: the still-image time,
/// the video, orientation, aspect and capture times.
enum LivePhotoRules {
    /// The findings about the movie and the pair (file-level rules are separate).
    static func findings(photo: AssetResource?, video: AssetResource?, options: ValidationOptions, limits: ParseLimits)
        -> [Finding]
    {
        var findings: [Finding] = []
        if let video {
            findings += stillImageTimeFindings(video.identity, limits: limits)
            if video.identity.format.isMovie {
                findings += VideoRules.findings(for: video.identity, what: "movie", options: options)
            }
        }
        // Comparing the halves needs both read completely; damage is reported as corrupt-file.
        if let photo, let video, photo.identity.issues.isEmpty, video.identity.issues.isEmpty {
            findings += shapeFindings(photo: photo.identity, video: video.identity, options: options)
            findings += captureTimeFindings(photo: photo.identity, video: video.identity, options: options)
        }
        return findings
    }

    /// `missing-still-image-time`, `still-image-time-out-of-range`, `still-image-time-not-on-frame`.
    static func stillImageTimeFindings(_ movie: ResourceIdentity, limits: ParseLimits) -> [Finding] {
        let name = ValidationPlan.name(movie.path)
        guard movie.format.isMovie, movie.issues.isEmpty || movie.duration != nil else { return [] }
        guard let time = movie.stillImageTime else {
            return [
                Finding(
                    .missingStillImageTime, path: movie.path,
                    message: "\(name) has no still-image-time track (com.apple.quicktime.still-image-time), so "
                        + "Photos does not know which frame is the photo and rejects the pair")
            ]
        }
        if let duration = movie.duration, time < 0 || time >= duration {
            let position = time < 0 ? "before the movie's start" : "after its end (\(MessageFormatting.seconds(duration)))"
            return [
                Finding(
                    .stillImageTimeOutOfRange, path: movie.path,
                    message: "the movie's still-image time \(MessageFormatting.seconds(time)) is \(position)")
            ]
        }
        // The frame found at identification; read again only for an identity made without it.
        let nearest: (time: Double, distance: Double, interval: Double)
        if let frame = movie.stillImageFrame {
            nearest = (frame.time, frame.distance, frame.interval)
        } else if let frames = MovieFrameTimes.read(path: movie.path, limits: limits),
            let found = MovieFrameTimes.nearest(to: time, in: frames)
        {
            nearest = found
        } else {
            return []
        }
        // Half the local frame interval: iPhones drop the frame rate in low light, and Apple's own
        // movies then put the still halfway between two frames (1.2017 s between 1.1683 s and
        // 1.2350 s in the 51F2BEF7 sample). 1 ms absorbs timescale rounding.
        let limit = nearest.interval / 2 + 0.001
        if nearest.distance > limit {
            return [
                Finding(
                    .stillImageTimeNotOnFrame, path: movie.path,
                    message: "the movie's still-image time \(MessageFormatting.seconds(time, decimals: 3)) is "
                        + "\(MessageFormatting.number(nearest.distance * 1000, decimals: 1)) ms from the nearest video frame "
                        + "(\(MessageFormatting.seconds(nearest.time, decimals: 3))), more than half a frame")
            ]
        }
        return []
    }

    /// The upright size: width and height swapped for EXIF orientations 5-8 (quarter turns).
    static func uprightSize(_ identity: ResourceIdentity) -> (width: Int, height: Int)? {
        guard let width = identity.width, let height = identity.height, width > 0, height > 0 else { return nil }
        if let orientation = identity.orientation, (5...8).contains(orientation) { return (height, width) }
        return (width, height)
    }

    /// `orientation-mismatch` when one half is upright portrait and the other landscape;
    /// otherwise `aspect-mismatch` when the upright aspect ratios differ.
    static func shapeFindings(photo: ResourceIdentity, video: ResourceIdentity, options: ValidationOptions) -> [Finding] {
        guard let still = uprightSize(photo), let movie = uprightSize(video) else { return [] }
        func shape(_ size: (width: Int, height: Int)) -> String {
            size.width > size.height ? "landscape" : size.width < size.height ? "portrait" : "square"
        }
        let stillShape = shape(still), movieShape = shape(movie)
        let describeStill = "\(still.width)x\(still.height), EXIF orientation \(photo.orientation ?? 1)"
        let describeMovie = "\(movie.width)x\(movie.height), track rotation \(rotationText(video.orientation ?? 1))"
        if stillShape != movieShape, stillShape != "square", movieShape != "square" {
            return [
                Finding(
                    .orientationMismatch, path: video.path,
                    message: "the still is upright \(stillShape) (\(describeStill)) but the movie is upright "
                        + "\(movieShape) (\(describeMovie)): the motion would play turned")
            ]
        }
        let stillRatio = Double(max(still.width, still.height)) / Double(min(still.width, still.height))
        let movieRatio = Double(max(movie.width, movie.height)) / Double(min(movie.width, movie.height))
        if abs(stillRatio - movieRatio) / movieRatio > options.aspectTolerance {
            return [
                Finding(
                    .aspectMismatch, path: photo.path,
                    message: "the still is \(still.width)x\(still.height) upright (aspect \(MessageFormatting.number(stillRatio))) "
                        + "and the movie \(movie.width)x\(movie.height) (aspect \(MessageFormatting.number(movieRatio)))")
            ]
        }
        return []
    }

    /// The clockwise rotation an EXIF orientation stands for, in words.
    private static func rotationText(_ orientation: Int) -> String {
        switch orientation {
        case 6, 7: return "90 degrees clockwise"
        case 3, 4: return "180 degrees"
        case 8, 5: return "90 degrees anticlockwise"
        default: return "none"
        }
    }

    /// `capture-time-mismatch` when the halves were taken more than the tolerance apart or a half
    /// has no usable date (zero dates count as none).
    static func captureTimeFindings(photo: ResourceIdentity, video: ResourceIdentity, options: ValidationOptions)
        -> [Finding]
    {
        switch (photo.captureDate, video.captureDate) {
        case let (still?, movie?):
            let distance = CaptureDate.pairingDistance(still, movie, tolerance: options.captureTimeTolerance)
            guard distance > options.captureTimeTolerance else { return [] }
            return [
                Finding(
                    .captureTimeMismatch, path: video.path,
                    message: "the still was taken \(still.iso8601) and the movie \(movie.iso8601), "
                        + "\(MessageFormatting.seconds(distance, decimals: 1)) apart (more than "
                        + "\(MessageFormatting.seconds(options.captureTimeTolerance, decimals: 1)))")
            ]
        case (_?, nil):
            return [
                Finding(
                    .captureTimeMismatch, path: video.path,
                    message: "\(ValidationPlan.name(video.path)) has no capture date (missing or zero, as Google Takeout "
                        + "writes); it will take the still's date",
                    hint: "nothing to fix if the still's date is right; `livepair restamp PHOTO VIDEO` writes it into the movie")
            ]
        case (nil, _?):
            return [
                Finding(
                    .captureTimeMismatch, path: photo.path,
                    message: "\(ValidationPlan.name(photo.path)) has no capture date (missing or zero); it will take the movie's date")
            ]
        case (nil, nil):
            return [
                Finding(
                    .captureTimeMismatch, path: photo.path,
                    message: "neither half has a capture date (missing or zero): the Live Photo will be dated by its upload")
            ]
        }
    }
}
