#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LivePairFormats
import LivePairMedia

/// Makes and restamps Live Photo pairs: a still with the content identifier in Apple's maker note
/// and a QuickTime movie with the same identifier in `moov/meta` and a still-image-time track, laid
/// out like camera files.
///
/// Every operation stages its outputs under their final names in a hidden folder next to the
/// destination, validates the staged pair with `Validator.validatePair`, and only then renames
/// them into place. Inputs are never modified (except by `restamp(... inPlace: true)`, which
/// replaces them by rename once the new files are complete and valid). On any error nothing is left
/// behind.
public struct LivePhotoPackager: Sendable {
    /// How outputs are encoded and written.
    public var options: PackagingOptions

    /// A packager with `options`.
    public init(options: PackagingOptions = PackagingOptions()) { self.options = options }

    /// Makes a Live Photo from a still and a movie.
    ///
    /// The still keeps its image data when it is HEIC or JPEG (only the maker note changes); PNG,
    /// WebP and other stills are encoded as `options.stillEncoding`. The movie is re-muxed when it
    /// is H.264 or HEVC in MOV or MP4, else transcoded to `options.transcodeCodec`.
    ///
    /// - Parameters:
    ///   - photo: the still.
    ///   - video: the movie.
    ///   - outputDirectory: where `<photo stem>.HEIC` (or `.JPG`) and `<photo stem>.MOV` are written
    ///     (created if needed); see `outputPaths(in:stem:still:)`.
    ///   - stillImageTime: seconds on the movie's timeline, snapped to the nearest frame; nil keeps
    ///     the movie's own still-image time or takes the frame nearest the middle.
    ///   - contentIdentifier: the identifier to write; nil makes a fresh UUID.
    public func make(
        photo: String, video: String, outputDirectory: String, stillImageTime: Double? = nil,
        contentIdentifier: String? = nil
    ) throws(PackagingError) -> PackagedLivePhoto {
        let identifier = try resolvedIdentifier(contentIdentifier)
        Self.recoverStaging(files: [photo, video], directories: [outputDirectory])
        let (photoIdentity, videoIdentity) = (try readableIdentity(photo), try readableIdentity(video))
        try checkUndamaged(photo: (photo, photoIdentity), video: (video, videoIdentity), stillImageTime: stillImageTime)
        let staged = StagedOutputs(options)
        try staged.createDirectory(outputDirectory)
        let stem = Self.stem(of: photo)
        let photoFormat: StillEncoding
        switch photoIdentity.format {
        case .heic: photoFormat = .heic
        case .jpeg: photoFormat = .jpeg
        default: photoFormat = options.stillEncoding
        }
        let (photoOutput, videoOutput) = Self.outputPaths(in: outputDirectory, stem: stem, still: photoFormat)
        return try writePair(
            photo: (photo, photoIdentity, photoOutput), video: (video, videoIdentity, videoOutput), identifier: identifier,
            stillImageTime: stillImageTime, staged: staged, transcodeScratch: { () throws(PackagingError) in
                try staged.scratch(in: outputDirectory, name: "transcoded.mov")
            })
    }

    /// Makes a Live Photo from a movie alone: the still is the movie's frame at the still-image
    /// time, turned upright and encoded as `options.stillEncoding`.
    public func make(
        video: String, outputDirectory: String, stillImageTime: Double? = nil, contentIdentifier: String? = nil
    ) throws(PackagingError) -> PackagedLivePhoto {
        let identifier = try resolvedIdentifier(contentIdentifier)
        Self.recoverStaging(files: [video], directories: [outputDirectory])
        let videoIdentity = try readableIdentity(video)
        try InputDamageCheck(limits: options.limits).check(
            videoIdentity, path: video, stillImageTimeGiven: stillImageTime != nil)
        let staged = StagedOutputs(options)
        try staged.createDirectory(outputDirectory)
        let stem = Self.stem(of: video)
        let (photoOutput, videoOutput) = Self.outputPaths(in: outputDirectory, stem: stem, still: options.stillEncoding)
        let photoStaged = try staged.stage(photoOutput)
        let videoStaged = try staged.stage(videoOutput)
        // The movie first: its written still-image time (snapped to a frame) is the frame to grab.
        // Apple's still-image transform is dropped: the still is that frame, untransformed.
        var stamper = MovieStamper(options: options, staged: staged)
        stamper.removedMetadataKeys = MovieStamper.stillImageTransformKeys
        let movie = try stamper.write(
            movieAt: video, identity: videoIdentity, identifier: identifier, stillImageTime: stillImageTime,
            to: videoStaged, scratch: { () throws(PackagingError) in
                try staged.scratch(in: outputDirectory, name: "transcoded.mov")
            })
        let frame: (image: PixelBuffer, colour: ColourDescription?)
        do throws(MediaError) {
            frame = try VideoFrameDecoder.uprightFrameAndColour(
                path: videoStaged, at: movie.stillImageTime, limits: options.limits)
        } catch {
            throw .media(error)
        }
        // The still carries what the movie's keys say of the capture (date, place, camera).
        // Its colour description is the video's (Display P3 for iPhone movies).
        let exif = try MovieFrameExif.tiff(
            movie: videoIdentity, width: frame.image.width, height: frame.image.height, identifier: identifier,
            colour: frame.colour)
        try StillStamper(options: options, staged: staged).write(
            image: frame.image, identifier: identifier, to: photoStaged, exifTIFF: exif, colour: frame.colour)
        return try finish(
            staged, identifier: identifier, photo: (photoStaged, photoOutput, .encoded),
            video: (videoStaged, videoOutput, movie.handling), stillImageTime: movie.stillImageTime)
    }

    /// Gives both halves of a pair a fresh (or the given) identifier: fixes pairs whose identifiers
    /// differ (broken exports) and pairs matched only by name.
    ///
    /// - Parameters:
    ///   - outputDirectory: where the restamped copies go (same file names); nil replaces the
    ///     originals in place, atomically (each is renamed over only after both new files are
    ///     complete and the pair validated, the two renames journaled so that a run killed between
    ///     them is completed by the next packaging run). A symbolic link is written through: its
    ///     target is replaced, the link stays.
    ///   - stillImageTime: nil keeps the movie's still-image time (or takes the middle frame).
    public func restamp(
        photo: String, video: String, outputDirectory: String?, stillImageTime: Double? = nil,
        contentIdentifier: String? = nil
    ) throws(PackagingError) -> PackagedLivePhoto {
        let identifier = try resolvedIdentifier(contentIdentifier)
        let inPlace = outputDirectory == nil
        let (photo, video) = inPlace ? (Self.resolvingLinks(photo), Self.resolvingLinks(video)) : (photo, video)
        Self.recoverStaging(files: [photo, video], directories: outputDirectory.map { [$0] } ?? [])
        let (photoIdentity, videoIdentity) = (try readableIdentity(photo), try readableIdentity(video))
        try checkUndamaged(photo: (photo, photoIdentity), video: (video, videoIdentity), stillImageTime: stillImageTime)
        guard photoIdentity.format == .heic || photoIdentity.format == .jpeg else {
            throw .unsupportedStill(path: photo, format: photoIdentity.format.rawValue)
        }
        guard MovieStamper.canRemux(videoIdentity) else {
            throw .unsupportedVideo(
                path: video, reason: "restamping keeps the movie's streams, which must be H.264 or HEVC in MOV or MP4")
        }
        let staged = StagedOutputs(options, overwrite: inPlace || options.overwrite)
        if let outputDirectory { try staged.createDirectory(outputDirectory) }
        let photoOutput = outputDirectory.map { "\($0)/\(Self.fileName(of: photo))" } ?? photo
        let videoOutput = outputDirectory.map { "\($0)/\(Self.fileName(of: video))" } ?? video
        return try writePair(
            photo: (photo, photoIdentity, photoOutput), video: (video, videoIdentity, videoOutput), identifier: identifier,
            stillImageTime: stillImageTime, staged: staged, transcodeScratch: { () throws(PackagingError) in
                throw .unsupportedVideo(path: video, reason: "restamping never transcodes")
            })
    }

    // MARK: Helpers shared with the motion-photo converter

    func identify(_ path: String) -> ResourceIdentity {
        ResourceIdentifier(limits: options.limits).identify(path: path)
    }

    /// The identity of `path`; fails when the file could not be read at all (missing, empty, unreadable).
    func readableIdentity(_ path: String) throws(PackagingError) -> ResourceIdentity {
        let identity = identify(path)
        if identity.format == .unknown, identity.fileSize == 0, let issue = identity.issues.first {
            throw .format(.io(path: identity.path, reason: issue.message))
        }
        return identity
    }

    /// Refuses a damaged still or movie (`InputDamageCheck`) before anything is written.
    func checkUndamaged(
        photo: (path: String, identity: ResourceIdentity), video: (path: String, identity: ResourceIdentity),
        stillImageTime: Double?
    ) throws(PackagingError) {
        let check = InputDamageCheck(limits: options.limits)
        try check.check(photo.identity, path: photo.path)
        try check.check(video.identity, path: video.path, stillImageTimeGiven: stillImageTime != nil)
    }

    /// Writes the still and the movie with `identifier` to their staged outputs, then finishes.
    private func writePair(
        photo: (path: String, identity: ResourceIdentity, output: String),
        video: (path: String, identity: ResourceIdentity, output: String), identifier: String, stillImageTime: Double?,
        staged: StagedOutputs, transcodeScratch: () throws(PackagingError) -> String
    ) throws(PackagingError) -> PackagedLivePhoto {
        let photoStaged = try staged.stage(photo.output)
        let videoStaged = try staged.stage(video.output)
        let photoHandling = try StillStamper(options: options, staged: staged).write(
            stillAt: photo.path, identity: photo.identity, identifier: identifier, to: photoStaged)
        let movie = try MovieStamper(options: options, staged: staged).write(
            movieAt: video.path, identity: video.identity, identifier: identifier, stillImageTime: stillImageTime,
            to: videoStaged, scratch: transcodeScratch)
        return try finish(
            staged, identifier: identifier, photo: (photoStaged, photo.output, photoHandling),
            video: (videoStaged, video.output, movie.handling), stillImageTime: movie.stillImageTime,
            dropped: DroppedMetadata.makerNote(ofStillAt: photo.path, format: photo.identity.format, limits: options.limits))
    }

    /// Validates the staged pair, renames it into place and describes it.
    func finish(
        _ staged: StagedOutputs, identifier: String, photo: (staged: String, output: String, handling: OutputHandling),
        video: (staged: String, output: String, handling: OutputHandling), stillImageTime: Double, dropped: [String] = []
    ) throws(PackagingError) -> PackagedLivePhoto {
        PackagingKillPoint.reached(.beforeCommit)
        let findings = try OutputValidation(options: options).validatePair(
            photo: photo.staged, video: video.staged, staged: staged)
        try staged.commit()
        return PackagedLivePhoto(
            contentIdentifier: identifier, photoPath: photo.output, videoPath: video.output,
            stillImageTime: stillImageTime, photoHandling: photo.handling, videoHandling: video.handling,
            findings: findings, dropped: dropped)
    }

    /// The identifier to write: the given one, which must be an RFC 4122 UUID (8-4-4-4-12
    /// hexadecimal digits, version 1-5, variant 10xx) and is written uppercase as Apple writes it,
    /// or a fresh random UUID.
    func resolvedIdentifier(_ given: String?) throws(PackagingError) -> String {
        guard let given else { return ContentIdentifier.random().rawValue }
        let upper = given.uppercased()
        let scalars = Array(upper.utf8)
        guard ContentIdentifier(rawValue: upper)?.isWellFormedUUID == true, scalars.count == 36,
            (UInt8(ascii: "1")...UInt8(ascii: "5")).contains(scalars[14]),
            [UInt8(ascii: "8"), UInt8(ascii: "9"), UInt8(ascii: "A"), UInt8(ascii: "B")].contains(scalars[19])
        else {
            throw .invalidArgument(
                "the identifier '\(given)' is not an RFC 4122 UUID (like 0E5A2C44-9B1D-4F3A-8C7E-2D6B1A9F0C35)")
        }
        return upper
    }

    /// Completes or removes what dead runs left in the folders of `files` and in `directories`
    /// (`StagingRecovery`), before an operation reads or writes there.
    static func recoverStaging(files: [String], directories: [String]) {
        StagingRecovery.recover(directories: files.map(StagedOutputs.directory(of:)) + directories)
    }

    /// `path` with symbolic links resolved (`realpath`); `path` itself when it cannot be resolved
    /// (a missing file is reported by the read that follows).
    static func resolvingLinks(_ path: String) -> String {
        guard let resolved = FileSystemPath.withCString(path, { realpath($0, nil) }) else { return path }
        defer { free(resolved) }
        return FileSystemPath.string(cString: resolved)
    }

    /// The last path component.
    static func fileName(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// The file name without its extension.
    static func stem(of path: String) -> String {
        let name = fileName(of: path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// The extension (without the dot), if any.
    static func extensionOf(_ path: String) -> String? {
        let name = fileName(of: path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        return String(name[name.index(after: dot)...])
    }

    /// The one naming rule of every Live Photo LivePair writes (`make`, `convert --to live-photo`):
    /// `<stem>.HEIC` or `<stem>.JPG` by the still's format, and `<stem>.MOV`, in upper case as an
    /// iPhone names them, whatever the inputs' extensions were (`pixel_8.jpg` gives `pixel_8.JPG`).
    public static func outputPaths(in directory: String, stem: String, still: StillEncoding) -> (photo: String, video: String) {
        ("\(directory)/\(stem).\(still.fileExtension)", "\(directory)/\(stem).MOV")
    }
}
