import LivePairFormats
import LivePairMedia

/// Renders the movie of a Live Photo edit and picks its still: the kept frames of the original
/// movie (`TrimmedFrames`), upright, encoded as H.264 in MP4 by `H264MovieWriter` (which
/// `MovieStamper` then re-muxes into the QuickTime movie with the identifier and still-image
/// time), shaped by the playback variation:
///
/// - none and Long Exposure: the kept frames as they are, with the sound of the kept range
///   unless muted; Long Exposure's still is the mean of the kept frames;
/// - Loop: the last `crossfadeFrames` frames crossfaded into the first ones (frame `j` of the
///   first ones shows `(j + 1) / (n + 1)` of itself over the end frame it replaces), so the last
///   frame leads smoothly to the first: `count - n` frames;
/// - Bounce: the frames forward then backward without repeating the turning frame: `2 * count - 1`
///   frames at the kept range's mean frame interval.
struct LivePhotoEditRenderer {
    let videoPath: String
    let window: Range<Double>
    /// The requested key photo time (original timeline); the kept frame nearest it is the key photo.
    let keyTime: Double
    let variation: PlaybackVariation
    let muted: Bool
    let limits: ParseLimits
    /// The factor the sound's samples are scaled by (1: unchanged).
    var audioGain: Float = 1
    /// Applied to every kept frame (`.video`) and to the key photo's frame (`.photo`).
    var frameProcessor: LivePhotoFrameProcessor?
    /// Whether the movie is encoded; when false only the still is made (the movie is re-muxed
    /// by an edit list: `EditListWindow`), and `Movie.path` is nil.
    var encodesMovie = true

    /// Frames crossfaded by Loop at most (half a second at 30 frames a second).
    static let crossfadeFrames = 15

    /// What was rendered.
    struct Movie {
        /// The H.264 MP4 written; nil when the movie was not encoded.
        let path: String?
        /// The still: the key photo's frame, or the long exposure.
        let still: PixelBuffer
        /// The colour the video declares (the still declares the same).
        let colour: ColourDescription?
        /// The key photo frame's time on the original timeline.
        let keyFrameTime: Double
        /// The key photo frame's time in the rendered movie.
        let stillImageTime: Double
        /// From the first kept frame to the end of the last, on the original timeline.
        let renderedRange: ClosedRange<Double>
        let frameCount: Int
        let hasAudio: Bool
    }

    /// Writes the movie to `path` (a scratch file) and returns it with its still.
    func render(to path: String?) throws(PackagingError) -> Movie {
        let holdsFrames = encodesMovie && (variation == .loop || variation == .bounce)
        var held: [(time: Double, image: PixelBuffer)] = []
        var heldBytes = 0
        var writer: H264MovieWriter?
        var first: Double?, last: Double?, previous: Double?, count = 0
        var key: (time: Double, image: PixelBuffer, index: Int)?
        var colour: ColourDescription?
        var averager = FrameBlending.Averager(aligning: true)
        var intervals = 0.0
        try TrimmedFrames(path: videoPath, window: window, limits: limits).forEach { frame, upright throws(PackagingError) in
            let time = frame.presentationTime
            if first == nil {
                first = time
                colour = frame.colour
            }
            if let previous { intervals = time - previous }
            previous = time
            last = time
            if key == nil || abs(time - keyTime) < abs(key!.time - keyTime) - TrimmedFrames.tolerance {
                key = (time, upright, count)
            }
            let shown = try process(upright, time: time, kind: .video)
            if (shown.width, shown.height) != (upright.width, upright.height) {
                throw .invalidArgument(
                    "the frame processor returned a \(shown.width)x\(shown.height) image for a \(upright.width)x\(upright.height) frame at \(time) s")
            }
            if holdsFrames {
                heldBytes += upright.width * upright.height * 4
                guard heldBytes <= LivePhotoEditingContext.maximumHeldFrameBytes else {
                    throw .invalidArgument(
                        "Loop and Bounce hold every kept frame, more than \(LivePhotoEditingContext.maximumHeldFrameBytes) bytes here: trim the movie")
                }
            }
            do throws(MediaError) {
                if variation == .longExposure { try averager.add(shown) }
                if holdsFrames {
                    held.append((time, shown))
                } else if let path, encodesMovie {
                    if writer == nil {
                        writer = try H264MovieWriter(
                            path: path, width: upright.width, height: upright.height, audioFrom: muted ? nil : videoPath,
                            audioWindow: muted ? nil : time..<window.upperBound, audioGain: audioGain,
                            movieTimescale: H264MovieWriter.clock)
                    }
                    try writer?.append(shown, presentationTime: time - (first ?? time))
                }
            } catch {
                throw .media(error)
            }
            count += 1
        }
        guard let first, let last, let key, count > 0 else {
            throw .invalidArgument(
                "the trim range \(window.lowerBound)-\(window.upperBound) keeps no frame of \(videoPath)")
        }
        let frameInterval = count > 1 ? (last - first) / Double(count - 1) : (intervals > 0 ? intervals : 1.0 / 30)
        var frameCount = count
        var stillImageTime = key.time - first
        var hasAudio = false
        let keyPhoto = variation == .longExposure ? key.image : try process(key.image, time: key.time, kind: .photo)
        do throws(MediaError) {
            if holdsFrames, let path {
                let shaped = try shape(held, keyIndex: key.index, interval: frameInterval)
                let movieWriter = try H264MovieWriter(
                    path: path, width: held[0].image.width, height: held[0].image.height, audioFrom: nil,
                    movieTimescale: H264MovieWriter.clock)
                for frame in shaped.frames { try movieWriter.append(frame.image, presentationTime: frame.time) }
                try movieWriter.finish()
                frameCount = shaped.frames.count
                stillImageTime = shaped.stillImageTime
            } else if let writer {
                try writer.finish()
                hasAudio = writer.hasAudio
            }
            let still = variation == .longExposure ? try averager.mean() ?? key.image : keyPhoto
            return Movie(
                path: encodesMovie ? path : nil, still: still, colour: colour, keyFrameTime: key.time, stillImageTime: stillImageTime,
                renderedRange: first...(last + frameInterval), frameCount: frameCount, hasAudio: hasAudio)
        } catch {
            throw .media(error)
        }
    }

    /// `image` as the frame processor returns it (itself without one); an error it throws is
    /// `invalidArgument` naming the frame.
    private func process(_ image: PixelBuffer, time: Double, kind: LivePhotoFrame.Kind) throws(PackagingError) -> PixelBuffer {
        guard let frameProcessor else { return image }
        do {
            return try frameProcessor(LivePhotoFrame(image: image, time: time, kind: kind))
        } catch {
            throw .invalidArgument("the frame processor failed on the \(kind) frame at \(time) s: \(error)")
        }
    }

    /// The frames of Loop or Bounce, with their times in the new movie, and the new movie's time
    /// of the frame showing the key photo.
    private func shape(
        _ frames: [(time: Double, image: PixelBuffer)], keyIndex: Int, interval: Double
    ) throws(MediaError) -> (frames: [(time: Double, image: PixelBuffer)], stillImageTime: Double) {
        let start = frames[0].time
        switch variation {
        case .bounce:
            let order = Array(frames.indices) + frames.indices.dropLast().reversed()
            let shaped = order.enumerated().map { (Double($0.offset) * interval, frames[$0.element].image) }
            return (shaped, Double(keyIndex) * interval)
        default:
            let count = frames.count
            let fade = min(Self.crossfadeFrames, count / 3)
            guard fade > 0 else { return (frames.map { ($0.time - start, $0.image) }, frames[keyIndex].time - start) }
            var shaped: [(time: Double, image: PixelBuffer)] = []
            for index in 0..<(count - fade) {
                var image = frames[index].image
                if index < fade {
                    image = try FrameBlending.crossfade(
                        frames[count - fade + index].image, image, weight: Double(index + 1) / Double(fade + 1))
                }
                shaped.append((frames[index].time - start, image))
            }
            // A key photo among the end frames folded into the start shows there.
            let shown = keyIndex >= count - fade ? keyIndex - (count - fade) : keyIndex
            return (shaped, shaped[shown].time)
        }
    }
}
