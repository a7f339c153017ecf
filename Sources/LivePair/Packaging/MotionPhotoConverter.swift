import LivePairFormats
import LivePairMedia

/// Converts between Apple Live Photos and Android motion photos.
///
/// - Live -> motion: the still is kept (HEIC or JPEG; other formats are encoded), the movie
///   becomes an MP4 (`mp42` file type; transcoded first when it is not H.264 or HEVC) with the
///   video packets byte for byte, AAC audio (a QuickTime `lpcm` track encoded with FFmpeg's `aac`
///   encoder, AAC copied) and no `mebx` timed-metadata tracks (`MotionPhotoMovieAssembler`), and is
///   appended to a JPEG or put in an `mpvd` box of a HEIC, with Google's Camera and Container XMP;
///   the presentation timestamp is the presentation time of the still's frame (the frame nearest
///   the movie's still-image time), and Apple's exact still-image time goes to the XMP as
///   `LivePair:StillImageTime` (`LivePairStillImageTime`).
/// - Motion -> live: the embedded video (Google or Samsung, JPEG or HEIC) becomes a QuickTime movie,
///   its streams as they are, with the identifier it carries (else the still's, else a new one) and
///   its own still-image-time track, else one at `LivePair:StillImageTime` exactly, else one at the
///   presentation timestamp; the still is written without the video and the
///   motion-photo XMP, with the identifier in its maker note. So a Live Photo converted there and
///   back keeps its identifier and its still-image time exactly.
///
/// Outputs are staged and validated before they are renamed into place, as `LivePhotoPackager` does.
public struct MotionPhotoConverter: Sendable {
    /// How outputs are encoded and written.
    public var options: PackagingOptions

    /// A converter with `options`.
    public init(options: PackagingOptions = PackagingOptions()) { self.options = options }

    private var packager: LivePhotoPackager { LivePhotoPackager(options: options) }

    /// Writes a motion photo made from a Live Photo's still and movie to `output`.
    ///
    /// - Parameter stillImageTime: the presentation time (seconds, snapped to a frame); nil uses the
    ///   movie's still-image time, else the frame nearest the middle.
    public func motionPhoto(
        photo: String, video: String, output: String, stillImageTime: Double? = nil
    ) throws(PackagingError) -> PackagedMotionPhoto {
        LivePhotoPackager.recoverStaging(files: [photo, video, output], directories: [])
        let (photoIdentity, videoIdentity) = (try packager.readableIdentity(photo), try packager.readableIdentity(video))
        try packager.checkUndamaged(
            photo: (photo, photoIdentity), video: (video, videoIdentity), stillImageTime: stillImageTime)
        try checkOutputName(output, photoIdentity: photoIdentity)
        let halfFindings = try InputPairCheck(limits: options.limits).findings(photo: photoIdentity, video: videoIdentity)
        let directory = StagedOutputs.directory(of: output)
        let staged = StagedOutputs(options)
        try staged.createDirectory(directory)
        let outputStaged = try staged.stage(output)

        let stillSource = try stillSource(photo: photo, identity: photoIdentity, staged: staged, directory: directory)

        // The movie as MP4: identifier kept (or the still's, or new), its still-image time read.
        let identifier = videoIdentity.contentIdentifier?.rawValue ?? photoIdentity.contentIdentifier?.rawValue
            ?? ContentIdentifier.random().rawValue
        let stamped = try staged.scratch(in: directory, name: "video.mp4")
        let movie = try MovieStamper(
            options: options, staged: staged, fileType: QuickTimeMovieRewriter.mpeg4FileTypeBox, isScratch: true
        ).write(
            movieAt: video, identity: videoIdentity, identifier: identifier, stillImageTime: stillImageTime, to: stamped,
            scratch: { () throws(PackagingError) in try staged.scratch(in: directory, name: "transcoded.mov") })
        // What Android reads: AAC audio, no mebx tracks (the still time goes to the XMP).
        let mp4 = try staged.scratch(in: directory, name: "embedded.mp4")
        let assembled = try embeddedMovie(from: stamped, to: mp4, staged: staged, directory: directory)
        // The still's frame, not Apple's time between two frames: readers show the frame at this time.
        let timestamp = Int64((movie.stillFrameTime * 1_000_000).rounded())

        var written: MotionPhotoWriter.Result?
        let limits = options.limits
        try staged.write(outputStaged) { sink throws(FormatError) in
            var writer = MotionPhotoWriter(still: stillSource, video: try FileByteSource(path: mp4), limits: limits)
            writer.stillImageTime = movie.exactStillImageTime
            written = try writer.write(to: sink, presentationTimestampUs: timestamp)
        }
        PackagingKillPoint.reached(.beforeCommit)
        let findings = try OutputValidation(options: options).validateMotionPhoto(outputStaged, staged: staged)
        try staged.commit()
        return PackagedMotionPhoto(
            path: output, videoOffset: written?.videoFileOffset ?? 0, videoLength: written?.videoLength ?? 0,
            presentationTimestampUs: timestamp, findings: halfFindings + findings,
            dropped: DroppedMetadata.trailer(byteCount: written?.droppedTrailerLength ?? 0)
                + DroppedMetadata.embeddedMovie(assembled, hadStillImageTimeTrack: videoIdentity.stillImageTime != nil))
    }

    /// Writes the MP4 a motion photo embeds from the stamped movie at `stamped` to `output`: its
    /// non-AAC audio encoded to AAC (through a scratch file), its `mebx` tracks dropped, every other
    /// track's samples copied byte for byte (`MotionPhotoMovieAssembler`).
    private func embeddedMovie(
        from stamped: String, to output: String, staged: StagedOutputs, directory: String
    ) throws(PackagingError) -> MotionPhotoMovieAssembler.Result {
        let limits = options.limits
        let movie: QuickTimeMovie
        do throws(FormatError) {
            movie = try QuickTimeMovieParser(limits: limits).parse(try FileByteSource(path: stamped))
        } catch {
            throw .format(error)
        }
        var audio: FileByteSource?
        if MotionPhotoMovieAssembler.needsAACAudio(movie) {
            let encoded = try staged.scratch(in: directory, name: "audio.mp4")
            do throws(MediaError) {
                guard try AACAudioEncoder(inputPath: stamped).encode(to: encoded) != nil else {
                    throw .unsupported("audio: FFmpeg reads no audio stream in the movie")
                }
            } catch {
                throw .media(error)
            }
            audio = try fileSource(encoded)
        }
        let assembler = MotionPhotoMovieAssembler(movie: try fileSource(stamped), audio: audio, limits: limits)
        var result: MotionPhotoMovieAssembler.Result?
        try staged.write(output, scratch: true) { sink throws(FormatError) in result = try assembler.write(to: sink) }
        guard let result else { throw .format(.invalid(context: "embedded movie", reason: "nothing was written")) }
        return result
    }

    private func fileSource(_ path: String) throws(PackagingError) -> FileByteSource {
        do throws(FormatError) { return try FileByteSource(path: path) } catch { throw .format(error) }
    }

    /// Writes a Live Photo pair made from a motion photo into `outputDirectory`:
    /// `<stem>.JPG` or `<stem>.HEIC` (the still without the video and the motion-photo XMP, with the
    /// identifier in its maker note) and `<stem>.MOV` (the embedded video's streams in QuickTime, with
    /// the identifier and a still-image-time track). A trailing `.MP` in the stem (Pixel files) is dropped.
    ///
    /// - Parameters:
    ///   - stillImageTime: seconds (snapped to a frame); nil keeps the embedded video's own
    ///     still-image-time track (a motion photo made from a Live Photo), else uses the motion
    ///     photo's presentation timestamp, else the frame nearest the middle.
    ///   - contentIdentifier: the identifier to write; nil keeps the one the embedded video carries
    ///     (else the still's), so that a Live Photo converted to a motion photo and back is the same
    ///     Live Photo; a fresh UUID when there is none.
    ///   - newIdentifier: write a fresh UUID even when the motion photo carries an identifier.
    public func livePhoto(
        motionPhoto path: String, outputDirectory: String, stillImageTime: Double? = nil, contentIdentifier: String? = nil,
        newIdentifier: Bool = false
    ) throws(PackagingError) -> PackagedLivePhoto {
        if contentIdentifier != nil, newIdentifier {
            throw .invalidArgument("give either an identifier or a new identifier, not both")
        }
        let given = try contentIdentifier.map { given throws(PackagingError) in try packager.resolvedIdentifier(given) }
        LivePhotoPackager.recoverStaging(files: [path], directories: [outputDirectory])
        let file: FileByteSource
        let extractor: MotionPhotoVideoExtractor
        let extraction: MotionPhotoVideoExtractor.Extraction
        do throws(FormatError) {
            file = try FileByteSource(path: path)
            extractor = MotionPhotoVideoExtractor(source: file, limits: options.limits)
            extraction = try extractor.locate()
        } catch {
            if case .unsupported = error { throw .notAMotionPhoto(path: path) }
            throw .format(error)
        }
        // A damaged still or embedded video (its sample tables outside it) is refused first.
        let identity = try packager.readableIdentity(path)
        try InputDamageCheck(limits: options.limits).check(identity, path: path)
        let embedded = SubrangeByteSource(base: file, offset: extraction.video.fileOffset, length: extraction.video.length)
        let embeddedIdentity = ResourceIdentifier(limits: options.limits).identify(source: embedded, path: path)
        let identifier = given
            ?? (newIdentifier ? nil : (embeddedIdentity.contentIdentifier ?? identity.contentIdentifier)?.rawValue)
            ?? ContentIdentifier.random().rawValue
        // The embedded video's own still-image time is exact (Apple's often lies between two
        // frames); the presentation timestamp is the frame's time, in microseconds.
        // A motion photo LivePair made keeps Apple's exact time in its XMP (its MP4 has no
        // still-image-time track); the track is written again at that time, unsnapped.
        let timestamp = extraction.presentationTimestampUs.map { Double($0) / 1_000_000 }
        let exact = stillImageTime == nil && embeddedIdentity.stillImageTime == nil ? extraction.video.stillImageTime : nil
        let requested = stillImageTime ?? (embeddedIdentity.stillImageTime == nil ? exact?.seconds ?? timestamp : nil)
        let staged = StagedOutputs(options)
        try staged.createDirectory(outputDirectory)
        var stem = LivePhotoPackager.stem(of: path)
        if stem.uppercased().hasSuffix(".MP") { stem.removeLast(3) }
        let stillFormat: StillEncoding = extraction.stillFormat == .jpeg ? .jpeg : .heic
        let (photoOutput, videoOutput) = LivePhotoPackager.outputPaths(in: outputDirectory, stem: stem, still: stillFormat)
        let photoStaged = try staged.stage(photoOutput)
        let videoStaged = try staged.stage(videoOutput)

        // The still: without the video and the motion-photo XMP, then stamped.
        let plainStill = try staged.scratch(in: outputDirectory, name: "plain.\(stillFormat.fileExtension)")
        try staged.write(plainStill, scratch: true) { sink throws(FormatError) in try extractor.writeStill(to: sink) }
        let plainIdentity = packager.identify(plainStill)
        _ = try StillStamper(options: options, staged: staged).write(
            stillAt: plainStill, identity: plainIdentity, identifier: identifier, to: photoStaged)
        var dropped = DroppedMetadata.makerNote(ofStillAt: plainStill, format: plainIdentity.format, limits: options.limits)
        do throws(FormatError) {
            dropped += DroppedMetadata.samsungRecords(try extractor.droppedSEFRecords())
        } catch {
            throw .format(error)
        }

        // The movie: re-muxed straight from the embedded range, or extracted and transcoded.
        let movie: MovieStamper.Written
        if MovieStamper.canRemux(embeddedIdentity) {
            var stamper = MovieStamper(options: options, staged: staged)
            stamper.keepsStillImageTimeExact = exact != nil
            movie = try stamper.write(
                movieAt: path, source: embedded, identity: embeddedIdentity, identifier: identifier,
                stillImageTime: requested, to: videoStaged, scratch: { () throws(PackagingError) in
                    throw .unsupportedVideo(path: path, reason: "the embedded video cannot be re-muxed")
                })
        } else {
            let extracted = try staged.scratch(in: outputDirectory, name: "embedded.mp4")
            try staged.write(extracted, scratch: true) { sink throws(FormatError) in try extractor.writeVideo(to: sink) }
            // A transcode loses the track: its time is given (snapped to a frame of the transcode).
            let transcodedTime = stillImageTime ?? embeddedIdentity.stillImageTime ?? exact?.seconds ?? timestamp
            movie = try MovieStamper(options: options, staged: staged).write(
                movieAt: extracted, identity: packager.identify(extracted), identifier: identifier,
                stillImageTime: transcodedTime, to: videoStaged, scratch: { () throws(PackagingError) in
                    try staged.scratch(in: outputDirectory, name: "transcoded.mov")
                })
        }
        return try packager.finish(
            staged, identifier: identifier, photo: (photoStaged, photoOutput, .metadataOnly),
            video: (videoStaged, videoOutput, movie.handling == .transcoded ? .transcoded : .extracted),
            stillImageTime: movie.stillImageTime, dropped: dropped)
    }

    /// Refuses an output whose extension names another format than the motion photo's (a HEIC
    /// still under a `.jpg` name): readers choose the decoder by extension.
    private func checkOutputName(_ output: String, photoIdentity: ResourceIdentity) throws(PackagingError) {
        let format: FileFormat
        switch photoIdentity.format {
        case .heic, .jpeg: format = photoIdentity.format
        default: format = options.stillEncoding == .heic ? .heic : .jpeg
        }
        guard let named = LivePhotoPackager.extensionOf(output)?.lowercased(), !format.extensions.contains(named) else {
            return
        }
        let otherFormats: [FileFormat] = [.jpeg, .heic, .avif, .png, .webp, .gif, .tiff, .quickTime, .mp4]
        guard otherFormats.contains(where: { $0.extensions.contains(named) }) else { return }
        let suggested = format == .heic ? "heic" : "jpg"
        throw .invalidArgument(
            "\(output) is named .\(named) but the motion photo would hold \(format == .heic ? "HEIC" : "JPEG") data "
                + "(the still is \(format == .heic ? "HEIC" : "JPEG")): name it .\(suggested)")
    }

    /// The still to embed: a HEIC or JPEG as it is; anything else encoded first (into the staging folder).
    private func stillSource(
        photo: String, identity: ResourceIdentity, staged: StagedOutputs, directory: String
    ) throws(PackagingError) -> any ByteSource {
        switch identity.format {
        case .heic, .jpeg:
            do throws(FormatError) { return try FileByteSource(path: photo) } catch { throw .format(error) }
        case .png, .webp, .gif, .tiff:
            let encodedPath = try staged.scratch(in: directory, name: "still.\(options.stillEncoding.fileExtension)")
            let bytes = try StillStamper(options: options, staged: staged).encode(try StillStamper.decode(photo))
            try staged.write(encodedPath, scratch: true) { sink throws(FormatError) in try sink.write(bytes) }
            do throws(FormatError) { return try FileByteSource(path: encodedPath) } catch { throw .format(error) }
        default:
            throw .unsupportedStill(path: photo, format: identity.format.rawValue)
        }
    }
}
