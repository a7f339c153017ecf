/// Takes a motion photo apart: the embedded video (Google JPEG or HEIC, Samsung SEF JPEG or
/// `mpvd` HEIC, legacy MicroVideo), found by `MotionPhotoLocator`, and the still without it.
///
/// The plain still keeps every byte of the image and its metadata except: the bytes after the
/// image (JPEG: after EOI, apart from appended items that belong to the image such as an Ultra
/// HDR gain map; HEIF: the trailing `mpvd` and `sefd` boxes; Samsung's SEF records other than the
/// video's are written again after the image, in a `sefd` box for HEIF), and the motion-photo XMP (Camera
/// `MotionPhoto*`/`MicroVideo*` properties and the Container directory, which keeps only the
/// items that stay). An XMP packet left with no property is removed (JPEG: its APP1 segment;
/// HEIF: its item). The input is never modified.
public struct MotionPhotoVideoExtractor: Sendable {
    /// Where the parts of a motion photo are.
    public struct Extraction: Sendable, Equatable {
        /// The still's format.
        public let stillFormat: MotionPhotoStillFormat
        /// The embedded video as the locator found it.
        public let video: EmbeddedMotionVideo
        /// Where the still's own bytes end (JPEG: after EOI and kept items; HEIF: at the first
        /// trailing `mpvd`/`sefd` box). The plain still is written from `0..<stillEnd` with its
        /// XMP edited.
        public let stillEnd: UInt64

        /// The video's byte range in the file.
        public var videoRange: Range<UInt64> { video.fileOffset..<video.fileOffset + video.length }
        /// The still's presentation time in the video, in microseconds; nil when unset (-1) or absent.
        public var presentationTimestampUs: Int64? { video.presentationTimestampUs }
    }

    /// The motion photo.
    public let source: any ByteSource
    /// Limits for parsing.
    public let limits: ParseLimits

    /// An extractor for the motion photo in `source`.
    public init(source: any ByteSource, limits: ParseLimits = .default) {
        self.source = source
        self.limits = limits
    }

    /// Locates the video. Throws `unsupported` when the file is not a motion photo (or not JPEG
    /// or HEIF), and `invalid` when its metadata claims a video that is not there.
    public func locate() throws(FormatError) -> Extraction {
        let still = try MotionPhotoStill(source: source, limits: limits)
        let lookup: MotionPhotoLookup
        switch still.format {
        case .jpeg:
            let xmp = still.xmp.map { MotionPhotoXMP($0, limits: limits) }
            lookup = try MotionPhotoLocator(limits: limits).locate(in: source, xmp: xmp)
        case .heif:
            let file = try HEIFFile(source: source, limits: limits)
            let xmp = try file.xmp(from: source).first.map { MotionPhotoXMP($0.bytes, limits: limits) }
            lookup = try MotionPhotoLocator(limits: limits).locate(in: source, xmp: xmp, topLevelBoxes: file.topLevelBoxes)
        }
        switch lookup {
        case .notMotionPhoto:
            throw .unsupported(context: source.name, reason: "not a motion photo: no embedded video is described or found")
        case let .claimedButMissing(reasons):
            throw .invalid(
                context: source.name, reason: "the metadata claims a video that is not there: " + reasons.joined(separator: "; "))
        case let .video(video):
            return Extraction(stillFormat: still.format, video: video, stillEnd: still.keptEnd)
        }
    }

    /// The video's bytes, read whole (bounded by `ParseLimits.maximumMetadataBytes` times 16).
    public func videoBytes() throws(FormatError) -> [UInt8] {
        let range = try locate().videoRange
        let maximum = UInt64(limits.maximumMetadataBytes) * 16
        guard range.upperBound - range.lowerBound <= maximum else {
            throw .limitExceeded(
                context: "\(source.name): embedded video", limit: "bytes read into memory",
                value: range.upperBound - range.lowerBound, maximum: maximum)
        }
        return try source.readExactly(at: range.lowerBound, count: Int(range.upperBound - range.lowerBound), context: "embedded video")
    }

    /// Writes the video to `path` atomically (temporary file, fsync, rename), streamed.
    @discardableResult
    public func writeVideo(
        to path: String, interpose: ((any ByteSink) -> any ByteSink)? = nil
    ) throws(FormatError) -> Extraction {
        let extraction = try locate()
        try AtomicFileWriter.write(to: path, interpose: interpose) { sink throws(FormatError) in
            try sink.copy(from: source, range: extraction.videoRange)
        }
        return extraction
    }

    /// Writes the video to `sink`, streamed.
    @discardableResult
    public func writeVideo(to sink: any ByteSink) throws(FormatError) -> Extraction {
        let extraction = try locate()
        try sink.copy(from: source, range: extraction.videoRange)
        return extraction
    }

    /// Writes the still without the video and the motion-photo XMP to `path` atomically
    /// (temporary file, fsync, rename). Also works on a still that is not a motion photo.
    /// Returns the output size.
    @discardableResult
    public func writeStill(
        to path: String, interpose: ((any ByteSink) -> any ByteSink)? = nil
    ) throws(FormatError) -> UInt64 {
        let plan = try stillPlan()
        try AtomicFileWriter.write(to: path, interpose: interpose) { sink throws(FormatError) in
            try plan.emit(to: sink)
        }
        return plan.size
    }

    /// Writes the still without the video and the motion-photo XMP to `sink`. Returns the output size.
    @discardableResult
    public func writeStill(to sink: any ByteSink) throws(FormatError) -> UInt64 {
        let plan = try stillPlan()
        try plan.emit(to: sink)
        return plan.size
    }

    private func stillPlan() throws(FormatError) -> MotionPhotoOutputPlan {
        let still = try MotionPhotoStill(source: source, limits: limits)
        var packet: [UInt8]?
        if let existing = still.xmp {
            var kept: [ContainerItem] = []
            if !still.keptItems.isEmpty {
                kept = [still.primaryItem ?? ContainerItem(mime: still.primaryMime, semantic: "Primary")] + still.keptItems
            }
            packet = try MotionPhotoXMPWriter.removingMotionPhoto(from: existing, keeping: kept, limits: limits)
        }
        var plan = try still.plan(xmp: packet, limits: limits)
        // Samsung's other SEF records (capture time, MCC, camera mode) stay, without the video's:
        // after the image (JPEG) or in a trailing `sefd` box (HEIF), where Samsung puts them.
        if let trailer = try SamsungSEFTrailer.read(source, limits: limits),
            let kept = try trailer.rewritten(keeping: { !Self.isVideoRecord($0, of: trailer) }, from: source, limits: limits)
        {
            if still.format == .heif {
                var header = ByteWriter(capacity: 8)
                header.u32(UInt32(kept.count + 8))
                header.fourCC("sefd")
                plan.append(header.bytes)
            }
            plan.append(kept)
        }
        return plan
    }

    /// Whether `entry` is the record of the embedded video (`MotionPhoto_Data`), which a still
    /// without the video drops.
    public static func isVideoRecord(_ entry: SamsungSEFEntry, of trailer: SamsungSEFTrailer) -> Bool {
        entry == trailer.motionPhotoData
    }

    /// The names of the Samsung SEF records a still written by `writeStill` drops (the video's).
    public func droppedSEFRecords() throws(FormatError) -> [String] {
        guard let trailer = try SamsungSEFTrailer.read(source, limits: limits) else { return [] }
        return trailer.entries.filter { Self.isVideoRecord($0, of: trailer) }.map(\.name)
    }
}
