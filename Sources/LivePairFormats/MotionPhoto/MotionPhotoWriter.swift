/// Writes a Google Motion Photo 1.0: a still (JPEG or HEIC) with its video embedded, described by
/// Camera and Container XMP (`MotionPhotoXMPWriter`). The inputs are never modified; the video
/// is embedded verbatim (the caller gives an MP4 or QuickTime movie starting with `ftyp`).
///
/// - JPEG: the XMP APP1 replaces the existing one in place, or is inserted after the Exif APP1
///   (else after a JFIF APP0, else after SOI); every other segment and the image data are copied
///   byte for byte, extended XMP included. Whatever followed the image's EOI (an earlier video, a
///   Samsung SEF trailer) is dropped, except appended items of the still's Container directory
///   that precede its video (an Ultra HDR gain map), which are kept with their directory entries.
///   The video is appended after that.
/// - HEIC/AVIF: the XMP item (`mime`, `application/rdf+xml`, `cdsc` to the primary) is replaced
///   or added through `HEIFMetaRewriter` (other items' data unchanged, file offsets moved with
///   their bytes); earlier trailing `mpvd`/`sefd` boxes are dropped; a top-level `mpvd` box
///   holding the video ends the file. As the specification requires, the primary item's
///   `Item:Padding` is the `mpvd` header size (8) and the video item's `Item:Length` is the
///   number of video bytes (the box payload), so the video starts at the file size minus that
///   length. (Samsung HEIC files count their `sefd` data in these values; there is none here.)
public struct MotionPhotoWriter: Sendable {
    /// What a write did.
    public struct Result: Sendable, Equatable {
        /// The still's format.
        public let stillFormat: MotionPhotoStillFormat
        /// Output file offset of the video's first byte.
        public let videoFileOffset: UInt64
        /// Length of the video in bytes.
        public let videoLength: UInt64
        /// Output size in bytes (the video ends the file).
        public let outputSize: UInt64
        /// Bytes at the end of the still that were not copied (an earlier embedded video, a SEF
        /// trailer, `mpvd`/`sefd` boxes); 0 when the still had none.
        public let droppedTrailerLength: UInt64
        /// Whether an existing XMP packet was merged (else a new one was written).
        public let mergedExistingXMP: Bool
        /// The XMP packet written.
        public let xmp: [UInt8]
    }

    /// The still image.
    public let still: any ByteSource
    /// The video embedded verbatim.
    public let video: any ByteSource
    /// Limits for parsing the still.
    public let limits: ParseLimits
    /// The exact Apple still-image time written in the XMP (`LivePair:StillImageTime`) when the
    /// video carries no still-image-time track; nil writes none.
    public var stillImageTime: LivePairStillImageTime?

    /// A writer embedding `video` in `still`.
    public init(still: any ByteSource, video: any ByteSource, limits: ParseLimits = .default) {
        self.still = still
        self.video = video
        self.limits = limits
    }

    /// Writes the motion photo to `path` atomically (temporary file, fsync, rename): a failure
    /// leaves no file and an existing one untouched. `interpose` wraps the file sink (tests
    /// inject failures). `presentationTimestampUs` is the still's time in the video (-1: unset).
    @discardableResult
    public func write(
        to path: String, presentationTimestampUs: Int64, interpose: ((any ByteSink) -> any ByteSink)? = nil
    ) throws(FormatError) -> Result {
        let (plan, result) = try makePlan(presentationTimestampUs: presentationTimestampUs)
        try AtomicFileWriter.write(to: path, interpose: interpose) { sink throws(FormatError) in
            try plan.emit(to: sink)
        }
        return result
    }

    /// Writes the motion photo to `sink`; offsets in the result are relative to the first byte written.
    @discardableResult
    public func write(to sink: any ByteSink, presentationTimestampUs: Int64) throws(FormatError) -> Result {
        let (plan, result) = try makePlan(presentationTimestampUs: presentationTimestampUs)
        try plan.emit(to: sink)
        return result
    }

    /// The video's `Item:Mime`: `video/quicktime` for the `qt  ` major brand, else `video/mp4`.
    /// Throws when `video` does not start with a plausible `ftyp` box.
    public static func videoMime(of video: any ByteSource) throws(FormatError) -> String {
        let head = try video.read(at: 0, count: 12)
        guard head.count == 12 else {
            throw .truncated(context: "\(video.name): video ftyp box", needed: 12, available: UInt64(head.count))
        }
        guard head[4...7].elementsEqual("ftyp".utf8) else {
            throw .invalid(context: "\(video.name): video", reason: "does not start with an ftyp box")
        }
        let boxSize = UInt64(head[0]) << 24 | UInt64(head[1]) << 16 | UInt64(head[2]) << 8 | UInt64(head[3])
        guard boxSize <= video.size else {
            throw .truncated(context: "\(video.name): video ftyp box", needed: boxSize, available: video.size)
        }
        guard boxSize == 0 || boxSize == 1 || boxSize >= 16 else {
            throw .invalid(context: "\(video.name): video ftyp box", reason: "size \(boxSize) is below 16")
        }
        return head[8...11].elementsEqual("qt  ".utf8) ? "video/quicktime" : "video/mp4"
    }

    // MARK: Planning

    private func makePlan(presentationTimestampUs: Int64) throws(FormatError) -> (MotionPhotoOutputPlan, Result) {
        guard presentationTimestampUs >= -1 else {
            throw .invalid(
                context: "presentation timestamp", reason: "\(presentationTimestampUs) is negative (only -1, unset, is allowed)")
        }
        let videoMime = try Self.videoMime(of: video)
        let stillImage = try MotionPhotoStill(source: still, limits: limits)
        let videoLength = video.size
        let largeBox = stillImage.format == .heif && videoLength > UInt64(UInt32.max) - 8
        let boxHeaderSize: UInt64 = stillImage.format == .heif ? (largeBox ? 16 : 8) : 0
        guard videoLength <= UInt64(Int64.max) - boxHeaderSize else {
            throw .limitExceeded(context: video.name, limit: "video size", value: videoLength, maximum: UInt64(Int64.max) - 16)
        }
        let description = MotionPhotoXMPWriter(
            presentationTimestampUs: presentationTimestampUs, primaryMime: stillImage.primaryMime,
            primaryPadding: stillImage.format == .heif ? Int64(boxHeaderSize) : stillImage.primaryItem?.padding ?? 0,
            intermediateItems: stillImage.keptItems, videoMime: videoMime, videoLength: Int64(videoLength),
            stillImageTime: stillImageTime)
        let packet: [UInt8]
        if let existing = stillImage.xmp {
            packet = try description.merged(into: existing, limits: limits)
        } else {
            packet = try description.packet(limits: limits)
        }
        var plan = try stillImage.plan(xmp: packet, limits: limits)
        if stillImage.format == .heif {
            var header = ByteWriter(capacity: 16)
            if largeBox {
                header.u32(1)
                header.fourCC("mpvd")
                header.u64(videoLength + 16)
            } else {
                header.u32(UInt32(videoLength + 8))
                header.fourCC("mpvd")
            }
            plan.append(header.bytes)
        }
        let videoOffset = plan.size
        plan.copy(video, 0..<videoLength)
        let result = Result(
            stillFormat: stillImage.format, videoFileOffset: videoOffset, videoLength: videoLength, outputSize: plan.size,
            droppedTrailerLength: still.size - stillImage.keptEnd, mergedExistingXMP: stillImage.xmp != nil, xmp: packet)
        return (plan, result)
    }
}
