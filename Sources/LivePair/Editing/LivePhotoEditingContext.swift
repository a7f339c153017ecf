#if canImport(Glibc)
import Glibc
#endif
import LivePairFormats
import LivePairMedia

/// A Live Photo edit on files, PhotoKit's `PHLivePhotoEditingContext` brought to a still and a
/// movie on disk: set the key photo (`settings.photoTime`), the trim range, the volume (0: mute)
/// and the playback variation (Loop, Bounce, Long Exposure), then `render(outputDirectory:)`.
///
/// ```swift
/// var edit = try LivePhotoEditingContext(photo: "IMG_1234.HEIC", video: "IMG_1234.MOV")
/// edit.settings.photoTime = 1.2
/// edit.settings.trim = 0.5...2.0
/// edit.settings.audioVolume = 0
/// let rendered = try edit.render(outputDirectory: "out")   // IMG_E1234.HEIC, IMG_E1234.MOV, IMG_1234.AAE
/// ```
///
/// The render is a new Live Photo with a new content identifier: the still is the movie's frame
/// at the key photo time (Long Exposure: the mean of the kept frames), turned upright and encoded
/// in the original still's format (HEIC or JPEG) with its Exif. The movie is the original's H.264
/// or HEVC packets, byte for byte, cut to the trim by edit lists with its sound (none when muted),
/// when the frames do not change (`movieHandling == .remuxed`); else (Loop, Bounce, another codec)
/// the kept frames, upright, encoded as H.264 (Bounce: forward then backward; Loop: its end
/// crossfaded into its start), with the original's sound of the kept range as AAC unless muted
/// (Loop and Bounce have none). Either is a QuickTime movie whose still-image time is the key
/// photo's frame. The adjustment
/// data records the settings in LivePair's format, so `init(photo:video:resuming:)` resumes the
/// edit. Outputs are staged, validated as one Live Photo and renamed into place together; the
/// originals are never modified, and a failure leaves nothing.
public struct LivePhotoEditingContext: Sendable {
    /// The original still.
    public let photoPath: String
    /// The original movie.
    public let videoPath: String
    /// What the edit changes.
    public var settings: LivePhotoEditSettings
    /// How outputs are written (overwriting, durability, still quality, limits).
    public var options: PackagingOptions
    /// PhotoKit's `frameProcessor`: called with every kept frame of the movie (`.video`, in
    /// order) and with the key photo's frame (`.photo`), each upright with its time on the
    /// original movie; the images it returns are what the render shows, so the movie is then
    /// encoded again (H.264). Not recorded in the adjustment data (a closure is not data): an
    /// editor that wants its edit resumable uses a named filter (`settings.filter`, recorded),
    /// after which this processor runs, or records its own. Long Exposure averages the processed
    /// frames.
    public var frameProcessor: LivePhotoFrameProcessor?
    /// Steps of the resumed adjustment data that a render does not apply (`SmartBlackAndWhite`, ...).
    public private(set) var unrenderedOperations: [String] = []

    /// Frames Loop and Bounce hold at once are bounded by this many bytes of RGBA: a longer kept
    /// range is refused (`invalidArgument`) rather than exhausting memory.
    public static let maximumHeldFrameBytes = 1 << 31

    /// An edit of the pair `photo` + `video` with `settings`.
    public init(
        photo: String, video: String, settings: LivePhotoEditSettings = LivePhotoEditSettings(),
        options: PackagingOptions = PackagingOptions()
    ) {
        photoPath = photo
        videoPath = video
        self.settings = settings
        self.options = options
    }

    /// An edit of the pair resumed from the adjustment data at `adjustments` (an `.AAE`):
    /// LivePair's own format gives back the settings it recorded; Photos' `com.apple.photo`
    /// gives its key photo, trim, mute and Loop/Bounce/Long Exposure steps as a starting point,
    /// its other steps listed in `unrenderedOperations`.
    ///
    /// - Throws: `format` when the file cannot be read or is not adjustment data;
    ///   `invalidArgument` when it holds another editor's format, which LivePair cannot read.
    public init(
        photo: String, video: String, resuming adjustments: String, options: PackagingOptions = PackagingOptions()
    ) throws(PackagingError) {
        let recipe = try Self.recipe(at: adjustments, limits: options.limits)
        self.init(photo: photo, video: video, settings: LivePhotoEditSettings(recipe: recipe), options: options)
        unrenderedOperations = LivePhotoEditSettings.unrenderedOperations(of: recipe)
    }

    /// The edit recipe in the `.AAE` at `path`.
    static func recipe(at path: String, limits: ParseLimits) throws(PackagingError) -> AdjustmentRecipe {
        let sidecar: AdjustmentSidecar
        let recipe: AdjustmentRecipe?
        do throws(FormatError) {
            let source = try FileByteSource(path: path)
            try limits.checkMetadataSize(source.size, context: path)
            sidecar = try AdjustmentSidecar.read(
                try source.readExactly(at: 0, count: Int(source.size), context: path), limits: limits, context: path)
            recipe = try sidecar.recipe(limits: limits)
        } catch {
            throw .format(error)
        }
        guard let recipe else {
            throw .invalidArgument(
                "\(path) holds adjustment data of '\(sidecar.adjustmentData.formatIdentifier)', which LivePair cannot read")
        }
        return recipe
    }

    /// Renders the edit into `outputDirectory` (created if needed) under Photos' names
    /// (`EditOutputNames`): the still, the movie and the adjustment data.
    ///
    /// - Parameter contentIdentifier: the render's identifier (an RFC 4122 UUID); nil makes one.
    /// - Throws: `PackagingError`: `invalidArgument` for settings out of range (a volume outside
    ///   0...1, a trim that keeps no frame, a Loop or Bounce too long to hold), `outputExists`
    ///   unless `options.overwrite`, `damagedInput`, `media` and `format` errors, `invalidOutput`.
    public func render(outputDirectory: String, contentIdentifier: String? = nil) throws(PackagingError)
        -> RenderedLivePhotoEdit
    {
        try checkSettings()
        let packager = LivePhotoPackager(options: options)
        let identifier = try packager.resolvedIdentifier(contentIdentifier)
        LivePhotoPackager.recoverStaging(files: [photoPath, videoPath], directories: [outputDirectory])
        let (photoIdentity, videoIdentity) = (try packager.readableIdentity(photoPath), try packager.readableIdentity(videoPath))
        try packager.checkUndamaged(
            photo: (photoPath, photoIdentity), video: (videoPath, videoIdentity), stillImageTime: settings.photoTime)
        var stillOptions = options
        switch photoIdentity.format {
        case .heic: stillOptions.stillEncoding = .heic
        case .jpeg: stillOptions.stillEncoding = .jpeg
        default: break
        }
        let names = EditOutputNames(originalStem: LivePhotoPackager.stem(of: photoPath), still: stillOptions.stillEncoding)
        let staged = StagedOutputs(options)
        try staged.createDirectory(outputDirectory)
        let photoStaged = try staged.stage("\(outputDirectory)/\(names.photo)")
        let videoStaged = try staged.stage("\(outputDirectory)/\(names.video)")
        let adjustmentsStaged = try staged.stage("\(outputDirectory)/\(names.adjustments)")

        let window = (settings.trim?.lowerBound ?? 0)..<(settings.trim?.upperBound ?? .infinity)
        let duration = videoIdentity.duration ?? 0
        let requested = settings.photoTime ?? videoIdentity.stillImageTime ?? (window.lowerBound + min(window.upperBound, duration)) / 2
        let processor = effectiveFrameProcessor
        let remuxes = processor == nil && Self.keepsMovieFrames(settings) && MovieStamper.canRemux(videoIdentity)
        var renderer = LivePhotoEditRenderer(
            videoPath: videoPath, window: window, keyTime: requested, variation: settings.playbackVariation,
            muted: settings.isMuted || settings.playbackVariation == .loop || settings.playbackVariation == .bounce,
            limits: options.limits)
        renderer.encodesMovie = !remuxes
        renderer.audioGain = Float(settings.audioVolume)
        renderer.frameProcessor = processor
        let movie = try renderer.render(to: remuxes ? nil : try staged.scratch(in: outputDirectory, name: "edit.mp4"))

        let stamped: MovieStamper.Written
        var renderedRange = movie.renderedRange
        var hasAudio = movie.hasAudio
        if remuxes {
            // The original's packets, cut by edit lists: only boxes around the media data change.
            let cut = try EditListWindow(
                moviePath: videoPath, requested: window, muted: settings.isMuted, limits: options.limits)
            var stamper = MovieStamper(options: options, staged: staged)
            stamper.trim = cut.trim
            if cut.hasSound, !settings.isMuted, settings.audioVolume < 1 {
                // The sound's samples scaled, encoded as AAC, beside the original's video packets.
                let sound = try staged.scratch(in: outputDirectory, name: "sound.mp4")
                do throws(MediaError) {
                    if try ScaledSoundWriter.write(
                        from: videoPath, window: cut.range.lowerBound..<cut.range.upperBound,
                        gain: Float(settings.audioVolume), movieTimescale: Int32(clamping: cut.movieTimescale), to: sound)
                    {
                        stamper.replacementSound = sound
                    }
                } catch {
                    throw .media(error)
                }
            }
            stamped = try stamper.write(
                movieAt: videoPath, identity: videoIdentity, identifier: identifier,
                stillImageTime: movie.keyFrameTime - cut.range.lowerBound, to: videoStaged,
                scratch: { () throws(PackagingError) in
                    throw .unsupportedVideo(path: videoPath, reason: "a re-muxed edit is never transcoded")
                })
            renderedRange = cut.range
            hasAudio = cut.hasSound && !settings.isMuted
        } else if let path = movie.path {
            stamped = try MovieStamper(options: options, staged: staged).write(
                movieAt: path, identity: packager.identify(path), identifier: identifier,
                stillImageTime: movie.stillImageTime, to: videoStaged, scratch: { () throws(PackagingError) in
                    throw .unsupportedVideo(path: path, reason: "the rendered movie is H.264 in MP4 and is never transcoded")
                })
        } else {
            throw .unsupportedVideo(path: videoPath, reason: "the edit's movie was not rendered")
        }
        let exif = EditedStillExif.tiff(
            ofStillAt: photoPath, format: photoIdentity.format, width: movie.still.width, height: movie.still.height,
            limits: options.limits)
        try StillStamper(options: stillOptions, staged: staged).write(
            image: movie.still, identifier: identifier, to: photoStaged, exifTIFF: exif, colour: movie.colour)

        let master = photoIdentity.width.flatMap { width in
            photoIdentity.height.map {
                AdjustmentRecipe.Master(width: Int64(width), height: Int64($0), orientation: photoIdentity.orientation.map(Int64.init))
            }
        }
        let sidecar = LivePairAdjustments.sidecar(
            AdjustmentRecipe(master: master, operations: settings.operations),
            timestamp: PropertyListDate(secondsSince1970: Double(time(nil))))
        try staged.write(adjustmentsStaged) { sink throws(FormatError) in try sink.write(sidecar.xmlBytes[...]) }

        PackagingKillPoint.reached(.beforeCommit)
        let findings = try OutputValidation(options: options).validatePair(photo: photoStaged, video: videoStaged, staged: staged)
        try staged.commit()
        return RenderedLivePhotoEdit(
            contentIdentifier: identifier, photoPath: "\(outputDirectory)/\(names.photo)",
            videoPath: "\(outputDirectory)/\(names.video)", adjustmentsPath: "\(outputDirectory)/\(names.adjustments)",
            settings: settings, photoTime: movie.keyFrameTime, stillImageTime: stamped.stillImageTime,
            renderedRange: renderedRange, frameCount: movie.frameCount, hasAudio: hasAudio,
            movieHandling: remuxes ? .remuxed : .transcoded, unrenderedOperations: unrenderedOperations,
            findings: findings)
    }

    /// Whether `settings` leave the movie's frames as they are (no Loop or Bounce), so the movie
    /// can be the original's video packets cut by edit lists rather than re-encoded (a volume
    /// between 0 and 1 encodes only the sound again).
    static func keepsMovieFrames(_ settings: LivePhotoEditSettings) -> Bool {
        settings.playbackVariation == .none || settings.playbackVariation == .longExposure
    }

    /// The settings' filter, then `frameProcessor`; nil when there is neither.
    var effectiveFrameProcessor: LivePhotoFrameProcessor? {
        guard let filter = settings.filter?.processor else { return frameProcessor }
        guard let frameProcessor else { return filter }
        return { frame in
            try frameProcessor(LivePhotoFrame(image: try filter(frame), time: frame.time, kind: frame.kind))
        }
    }

    /// Refuses settings a render cannot honour.
    private func checkSettings() throws(PackagingError) {
        guard settings.audioVolume.isFinite, (0...1).contains(settings.audioVolume) else {
            throw .invalidArgument("the audio volume \(settings.audioVolume) is not between 0 (mute) and 1")
        }
        if let time = settings.photoTime, !time.isFinite || time < 0 {
            throw .invalidArgument("the key photo time \(time) is not a time in the movie")
        }
        if let trim = settings.trim, !trim.lowerBound.isFinite || !trim.upperBound.isFinite || trim.lowerBound < 0
            || trim.lowerBound >= trim.upperBound
        {
            throw .invalidArgument("the trim range \(trim.lowerBound)-\(trim.upperBound) keeps no time of the movie")
        }
    }
}
