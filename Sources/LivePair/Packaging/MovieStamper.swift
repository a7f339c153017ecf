import LivePairFormats
import LivePairMedia

/// Writes the movie half of a Live Photo: a QuickTime movie with the content identifier in
/// `moov/meta` and the still-image-time track. H.264 and HEVC movies in MOV or MP4 are re-muxed
/// (media data copied byte for byte, only boxes around it change); anything else is transcoded with
/// FFmpeg first to the configured codec.
struct MovieStamper {
    let options: PackagingOptions
    /// Where outputs are staged.
    let staged: StagedOutputs
    /// The `ftyp` box the output gets: Apple's `qt  ` for Live Photos, `mp42` for motion photos.
    var fileType: [UInt8] = QuickTimeMovieRewriter.quickTimeFileTypeBox
    /// Whether the output is an intermediate file (not flushed, no injected failures).
    var isScratch = false
    /// `moov/meta` keys left out of the output.
    var removedMetadataKeys: Set<String> = []
    /// Whether a given still-image time is written exactly (not snapped to a frame): the time a
    /// motion photo's `LivePair:StillImageTime` kept.
    var keepsStillImageTimeExact = false
    /// Cuts the re-muxed movie to a window by edit lists (a Live Photo edit's trim and mute):
    /// the still-image time is then on the trimmed timeline. Only for movies `canRemux` accepts.
    var trim: EditListTrim?
    /// A movie (an MP4 of one AAC sound track, on the input's movie timescale) whose sound
    /// replaces the re-muxed movie's: a Live Photo edit's sound at a volume between 0 and 1.
    var replacementSound: String?

    /// What `write` did.
    struct Written {
        /// The still-image time written, in seconds.
        let stillImageTime: Double
        /// The presentation time of the still's frame (the frame nearest the still-image time).
        let stillFrameTime: Double
        /// The still-image time exactly, on the movie's timescale.
        let exactStillImageTime: LivePairStillImageTime?
        /// How the movie was produced.
        let handling: OutputHandling
    }

    /// Apple's keys for the crop and rotation Photos applies to the still it shows from the movie
    /// (a timed-metadata track of their own on iPhone 15): meaningless once the still *is* the
    /// movie's frame (`make --video`).
    static let stillImageTransformKeys: Set<String> = [
        "com.apple.quicktime.live-photo-still-image-transform",
        "com.apple.quicktime.live-photo-still-image-transform-reference-dimensions",
    ]

    /// The codecs kept without re-encoding.
    static let remuxableCodecs: Set<String> = ["h264", "hevc"]

    /// Formats that are stills, never movies.
    static let stillFormats: Set<FileFormat> = [.jpeg, .heic, .avif, .png, .webp, .gif, .tiff]

    /// Whether the movie identified as `identity` can be re-muxed.
    static func canRemux(_ identity: ResourceIdentity) -> Bool {
        (identity.format == .quickTime || identity.format == .mp4)
            && remuxableCodecs.contains(identity.videoCodec ?? "")
    }

    /// Writes the movie in `source` (identified as `identity`, at `path` for messages and for
    /// transcoding) with `identifier` and the still-image time to `destination`.
    ///
    /// - Parameters:
    ///   - stillImageTime: requested seconds (snapped to a frame); nil keeps the movie's own or
    ///     takes the frame nearest the middle.
    ///   - scratch: a path for the intermediate transcode, when one is needed.
    /// - Returns: the still-image time written, the presentation time of the frame nearest it (the
    ///   still's frame) and how the movie was produced.
    func write(
        movieAt path: String, source: (any ByteSource)? = nil, identity: ResourceIdentity, identifier: String,
        stillImageTime: Double?, to destination: String, scratch: () throws(PackagingError) -> String
    ) throws(PackagingError) -> Written {
        if let stillImageTime, !stillImageTime.isFinite || stillImageTime < 0 {
            throw .invalidArgument("the still time \(stillImageTime) is not a time in the movie")
        }
        var handling = OutputHandling.remuxed
        var input: any ByteSource
        if Self.canRemux(identity) {
            if let source {
                input = source
            } else {
                do throws(FormatError) { input = try FileByteSource(path: path) } catch { throw .format(error) }
            }
            let keepsFileType = identity.format == (fileType == QuickTimeMovieRewriter.quickTimeFileTypeBox ? .quickTime : .mp4)
            if keepsFileType { handling = .metadataOnly }
        } else if !Self.stillFormats.contains(identity.format) {
            // Another codec in MOV/MP4, or another container (Matroska, WebM, AVI, ...) that FFmpeg reads.
            let intermediate = try scratch()
            let codec: MovieTranscoder.VideoCodec = options.transcodeCodec == .hevc ? .hevc : .h264
            do throws(MediaError) {
                _ = try MovieTranscoder(inputPath: path, codec: codec).transcode(to: intermediate)
            } catch {
                throw .media(error)
            }
            do throws(FormatError) { input = try FileByteSource(path: intermediate) } catch { throw .format(error) }
            handling = .transcoded
        } else {
            throw .unsupportedVideo(path: path, reason: "a \(identity.format.rawValue) still is not a movie")
        }
        var rewriter = QuickTimeMovieRewriter(source: input, placement: .end, limits: options.limits)
        rewriter.replacementFileType = fileType
        // A Live Photo movie shows one picture: extra video tracks (a Pixel's one-frame still) are disabled.
        rewriter.disablesSecondaryVideoTracks = fileType == QuickTimeMovieRewriter.quickTimeFileTypeBox
        rewriter.removedMetadataKeys = removedMetadataKeys
        rewriter.keepsStillImageTimeExact = keepsStillImageTimeExact
        rewriter.trim = handling == .transcoded ? nil : trim
        if let replacementSound, handling != .transcoded {
            do throws(FormatError) { rewriter.replacementSound = try FileByteSource(path: replacementSound) } catch { throw .format(error) }
        }
        var written: QuickTimeMovieRewriter.Result?
        try staged.write(destination, scratch: isScratch) { sink throws(FormatError) in
            written = try rewriter.write(
                to: sink, contentIdentifier: identifier, stillImageTime: stillImageTime,
                extraMetadata: options.captureStamp?.movieMetadata ?? [])
        }
        guard let written else { throw .format(.invalid(context: "movie", reason: "the rewrite wrote nothing")) }
        return Written(
            stillImageTime: written.stillImageTime, stillFrameTime: written.stillFrameTime,
            exactStillImageTime: LivePairStillImageTime(ticks: written.stillImageTicks, timescale: written.movieTimescale),
            handling: handling)
    }
}
