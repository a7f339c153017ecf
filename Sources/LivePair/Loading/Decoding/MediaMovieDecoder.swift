public import LivePairFormats
public import LivePairMedia

/// The loader's movie decoder over LivePairMedia: metadata from LivePair's identification and
/// the QuickTime parser plus libavformat's header (rotation, coded size; no frame decoded); single frames through
/// `VideoFrameDecoder` (seek, decode forward); all frames through `SequentialFrameReader`.
/// Frames are scaled by libswscale, then turned upright by the track's display rotation.
public struct MediaMovieDecoder: MovieDecoding {
    /// Parser and pixel limits.
    public let limits: ParseLimits

    /// A decoder applying `limits`.
    public init(limits: ParseLimits = .default) { self.limits = limits }

    /// See `MovieDecoding.readMetadata`. `path` may be an `EmbeddedMovie` reference.
    public func readMetadata(path: String, cancellation: CancellationFlag) throws(LoaderError) -> MovieMetadata {
        if cancellation.isCancelled { throw .cancelled }
        if let embedded = EmbeddedMovie(reference: path) {
            return try readMetadata(embedded, cancellation: cancellation)
        }
        let identity = ResourceIdentifier(limits: limits).identify(path: path)
        guard identity.format.isMovie else {
            if let issue = identity.issues.first { throw .unreadable(path: path, reason: issue.message) }
            throw .unsupportedFormat(path: path, format: identity.format.rawValue)
        }
        var frameTimes: [Double] = [], keyFrameTimes: [Double] = []
        do throws(FormatError) {
            let movie = try QuickTimeMovieParser(limits: limits).parse(try FileByteSource(path: path))
            frameTimes = movie.videoTrack?.presentationTimes() ?? []
            keyFrameTimes = movie.videoTrack.map(Self.keyFrameTimes) ?? []
        } catch { throw .unreadable(path, error) }
        if cancellation.isCancelled { throw .cancelled }
        let stream: VideoStreamInfo
        do throws(MediaError) { stream = try VideoFrameProbe().probe(path: path, headerOnly: true) } catch {
            throw LoaderError.movie(path, error)
        }
        let rotation = Int((stream.rotationDegrees / 90).rounded()) * 90
        return MovieMetadata(
            duration: identity.duration ?? stream.duration ?? frameTimes.last ?? 0,
            frameRate: identity.frameRate ?? stream.framesPerSecond, stillImageTime: identity.stillImageTime,
            hasAudio: identity.audioCodec != nil, contentIdentifier: identity.contentIdentifier, frameTimes: frameTimes,
            codedSize: PixelSize(width: stream.width, height: stream.height), rotationDegrees: rotation,
            codec: stream.codecName, keyFrameTimes: keyFrameTimes)
    }

    /// The presentation times of the track's key frames (`stss`; every sample without one),
    /// ascending, on the movie timeline.
    static func keyFrameTimes(_ track: Track) -> [Double] {
        let times = track.samples.presentationTimes(limit: .max)
        let timeline = track.timeline
        let indices = track.samples.syncSamples.map { $0.map { Int($0) - 1 } } ?? Array(times.indices)
        return indices.compactMap { index in
            times.indices.contains(index) ? timeline.movieTime(ofMediaTime: times[index]) : nil
        }.sorted()
    }

    /// See `MovieDecoding.decodeFrame`.
    public func decodeFrame(
        path: String, at time: Double, movie: MovieMetadata, size: PixelSize, cancellation: CancellationFlag
    ) throws(LoaderError) -> MovieFrame {
        let coded = Self.codedOutputSize(size, movie: movie)
        do throws(MediaError) {
            let decoder = VideoFrameDecoder(limits: limits, maximumDimension: max(coded.width, coded.height))
            let frame: DecodedVideoFrame
            if let embedded = EmbeddedMovie(reference: path) {
                frame = try decoder.decodeFrame(
                    path: embedded.containerPath, embeddedAt: embedded.offset, length: embedded.length, at: time,
                    cancellation: cancellation)
            } else {
                frame = try decoder.decodeFrame(path: path, at: time, cancellation: cancellation)
            }
            var image = frame.image
            if image.width != coded.width || image.height != coded.height {
                image = try image.scaled(toWidth: coded.width, height: coded.height, filter: .area)
            }
            return MovieFrame(
                image: try image.rotated(anticlockwiseDegrees: movie.rotationDegrees),
                presentationTime: frame.presentationTime)
        } catch {
            throw LoaderError.movie(path, error)
        }
    }

    /// See `MovieDecoding.makeFrameReader`.
    public func makeFrameReader(path: String, movie: MovieMetadata, size: PixelSize, cancellation: CancellationFlag)
        throws(LoaderError) -> any MovieFrameReading
    {
        let coded = Self.codedOutputSize(size, movie: movie)
        do throws(MediaError) {
            let reader = try openReader(path, size: coded, cancellation: cancellation)
            return RotatingFrameReader(reader: reader, path: path, rotation: movie.rotationDegrees)
        } catch {
            throw LoaderError.movie(path, error)
        }
    }

    /// See `MovieDecoding.makePlanarFrameReader`: frames converted by libswscale from the decoded
    /// YUV straight to `yuv420p` at the size, then turned upright plane by plane.
    public func makePlanarFrameReader(
        path: String, movie: MovieMetadata, size: PixelSize, cancellation: CancellationFlag
    ) throws(LoaderError) -> any PlanarMovieFrameReading {
        let coded = Self.codedOutputSize(size, movie: movie)
        do throws(MediaError) {
            let reader = try openReader(path, size: coded, cancellation: cancellation)
            return RotatingFrameReader(reader: reader, path: path, rotation: movie.rotationDegrees)
        } catch {
            throw LoaderError.movie(path, error)
        }
    }

    /// A sequential reader on the movie at `path` (or the embedded movie it names).
    private func openReader(_ path: String, size: PixelSize?, cancellation: CancellationFlag) throws(MediaError)
        -> SequentialFrameReader
    {
        if let embedded = EmbeddedMovie(reference: path) {
            return try SequentialFrameReader(
                path: embedded.containerPath, embeddedAt: embedded.offset, length: embedded.length, width: size?.width,
                height: size?.height, limits: limits, cancellation: cancellation)
        }
        return try SequentialFrameReader(
            path: path, width: size?.width, height: size?.height, limits: limits, cancellation: cancellation)
    }

    /// The metadata of a motion photo's embedded movie: timing and audio from the movie's own
    /// `moov` (through the motion photo's identification and the QuickTime parser on its byte
    /// range), codec and coded size from libavformat on the range, rotation from the track's
    /// matrix; the still-image time is the motion photo's presentation timestamp (nil when it
    /// has none: the poster is then the middle frame); no content identifier.
    private func readMetadata(_ embedded: EmbeddedMovie, cancellation: CancellationFlag) throws(LoaderError)
        -> MovieMetadata
    {
        let path = embedded.reference
        let identity = ResourceIdentifier(limits: limits).identify(path: embedded.containerPath)
        guard let motion = identity.motionPhoto, motion.videoOffset == embedded.offset,
            motion.videoLength == embedded.length
        else {
            throw .unreadable(path: path, reason: "no motion-photo video at that range")
        }
        var frameTimes: [Double] = [], keyFrameTimes: [Double] = []
        var rotation = 0
        do throws(FormatError) {
            let range = SubrangeByteSource(
                base: try FileByteSource(path: embedded.containerPath), offset: embedded.offset, length: embedded.length)
            let movie = try QuickTimeMovieParser(limits: limits).parse(range)
            frameTimes = movie.videoTrack?.presentationTimes() ?? []
            keyFrameTimes = movie.videoTrack.map(Self.keyFrameTimes) ?? []
            switch movie.videoTrack?.header.orientation {
            case 6?: rotation = -90
            case 3?: rotation = 180
            case 8?: rotation = 90
            default: rotation = 0
            }
        } catch { throw .unreadable(path, error) }
        if cancellation.isCancelled { throw .cancelled }
        let reader: SequentialFrameReader
        do throws(MediaError) { reader = try openReader(path, size: nil, cancellation: cancellation) } catch {
            throw LoaderError.movie(path, error)
        }
        let stillTime = motion.presentationTimestampUs.flatMap { $0 >= 0 ? Double($0) / 1_000_000 : nil }
        return MovieMetadata(
            duration: identity.duration ?? frameTimes.last ?? 0, frameRate: identity.frameRate,
            stillImageTime: stillTime, hasAudio: identity.audioCodec != nil, contentIdentifier: nil,
            frameTimes: frameTimes, codedSize: PixelSize(width: reader.codedWidth, height: reader.codedHeight),
            rotationDegrees: rotation, codec: reader.codecName, keyFrameTimes: keyFrameTimes)
    }

    /// The stored-orientation size that becomes `size` once rotated.
    static func codedOutputSize(_ size: PixelSize, movie: MovieMetadata) -> PixelSize {
        let upright = size.isMaximum ? movie.uprightSize : size
        return ((movie.rotationDegrees % 180) + 180) % 180 == 90 ? upright.transposed : upright
    }
}

/// Wraps a `SequentialFrameReader`, turning each frame upright, as RGBA or planar YUV frames.
final class RotatingFrameReader: MovieFrameReading, PlanarMovieFrameReading {
    private let reader: SequentialFrameReader
    private let path: String
    private let rotation: Int

    init(reader: SequentialFrameReader, path: String, rotation: Int) {
        self.reader = reader
        self.path = path
        self.rotation = rotation
    }

    func nextFrame() throws(LoaderError) -> MovieFrame? {
        do throws(MediaError) {
            guard let frame = try reader.next() else { return nil }
            return MovieFrame(
                image: try frame.image.rotated(anticlockwiseDegrees: rotation), presentationTime: frame.presentationTime)
        } catch {
            throw LoaderError.movie(path, error)
        }
    }

    func nextPlanarFrame() throws(LoaderError) -> PlanarMovieFrame? {
        do throws(MediaError) {
            guard let frame = try reader.nextPlanar() else { return nil }
            return PlanarMovieFrame(
                image: try frame.image.rotated(anticlockwiseDegrees: rotation), presentationTime: frame.presentationTime)
        } catch {
            throw LoaderError.movie(path, error)
        }
    }
}
