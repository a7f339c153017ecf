/// Builds the still-image-time track of a Live Photo movie, laid out like Apple's camera files: a
/// timed-metadata (`meta` handler) track whose `mebx` sample description has one key,
/// `com.apple.quicktime.still-image-time` (type 65, int8), and whose single sample (value -1,
/// duration 1 tick) is placed on the movie timeline by an edit list: an empty edit as long as the
/// still time, then one tick of media time 0. `tref cdsc` points at the main video track.
public enum StillImageTimeTrackWriter {
    /// The sample: `{u32 size 9, u32 local key id 1, int8 -1}`.
    public static let sampleBytes: [UInt8] = [0, 0, 0, 9, 0, 0, 0, 1, 0xFF]

    /// Where the track goes and what it points at.
    public struct Placement: Sendable, Equatable {
        /// The new track's id.
        public var trackID: UInt32
        /// The main video track's id (`tref cdsc`).
        public var videoTrackID: UInt32
        /// The still time on the movie timeline, in movie timescale ticks (the empty edit's length).
        public var movieTicks: UInt64
        /// The movie timescale (`mvhd`); also used as the track's media timescale.
        public var movieTimescale: UInt32
        /// Creation and modification times copied into `tkhd` and `mdhd` (seconds since 1904).
        public var creationTime: UInt32
        /// The output file offset of the 9-byte sample.
        public var sampleOffset: UInt64

        /// Memberwise initializer.
        public init(
            trackID: UInt32, videoTrackID: UInt32, movieTicks: UInt64, movieTimescale: UInt32, creationTime: UInt32,
            sampleOffset: UInt64
        ) {
            self.trackID = trackID
            self.videoTrackID = videoTrackID
            self.movieTicks = movieTicks
            self.movieTimescale = movieTimescale
            self.creationTime = creationTime
            self.sampleOffset = sampleOffset
        }
    }

    /// The presentation time (seconds, movie timeline) of the main video frame nearest `seconds`,
    /// or nil when the video track has no presented frames. Only the samples `stsz` declares are
    /// considered (a damaged `stts` may claim billions).
    ///
    /// A time halfway between two frames (Apple's 1.2017 s between 1.1683 s and 1.235 s) goes to
    /// the earlier one, the frame still shown then; distances within a microsecond are a tie
    /// (times from different timescales do not halve exactly in binary).
    public static func snap(_ seconds: Double, toFramesOf video: Track) -> Double? {
        let count = min(video.samples.timedSampleCount, UInt64(video.samples.sampleCount), 4_000_000)
        let times = video.presentationTimes(limit: Int(count))
        // Clamped first: far outside the movie every distance rounds to the same value.
        guard let first = times.first, let last = times.last else { return nil }
        let target = min(max(seconds, first), last)
        var best = first
        for time in times where abs(time - target) < abs(best - target) - 0.000_001 { best = time }
        return best
    }

    /// The `trak` box for `placement`.
    public static func track(_ placement: Placement) -> BoxNode {
        let ticks = placement.movieTicks
        let large = ticks + 1 > UInt64(UInt32.max)
        return .container(
            "trak",
            [
                trackHeader(placement, duration: ticks + 1, large: large),
                .container("edts", [editList(emptyTicks: ticks, large: large)]),
                .container("tref", [.leaf("cdsc", ByteWriter.encode(UInt64(placement.videoTrackID), byteCount: 4))]),
                .container(
                    "mdia",
                    [
                        mediaHeader(placement),
                        .fullBox("hdlr", componentHandler(type: "mhlr", subtype: "meta", flags: 1, name: "Core Media Metadata")),
                        .container(
                            "minf",
                            [
                                .container("gmhd", [.fullBox("gmin", [0x00, 0x40, 0x80, 0x00, 0x80, 0x00, 0x80, 0x00, 0, 0, 0, 0])]),
                                .fullBox("hdlr", componentHandler(type: "dhlr", subtype: "alis", flags: 0, name: "Core Media Data Handler")),
                                .container("dinf", [.fullBox("dref", [0, 0, 0, 1] + BoxNode.fullBox("alis", flags: 1, []).serialized())]),
                                sampleTable(sampleOffset: placement.sampleOffset),
                            ]),
                    ]),
            ])
    }

    /// The `stbl` of the track: `stsd` (one `mebx` entry), `stts`, `stsc`, `stsz`, `stco`/`co64`.
    public static func sampleTable(sampleOffset: UInt64) -> BoxNode {
        .container(
            "stbl",
            [
                .fullBox("stsd", [0, 0, 0, 1] + sampleDescription().serialized()),
                .fullBox("stts", [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]),
                .fullBox("stsc", [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]),
                .fullBox("stsz", [0, 0, 0, UInt8(sampleBytes.count), 0, 0, 0, 1]),
                ChunkOffsetRelocation.chunkOffsetBox([sampleOffset]),
            ])
    }

    /// The `mebx` sample description: 6 reserved bytes, data reference index 1, and a `keys` box
    /// with local key 1 = `keyd` (`mdta` + the still-image-time key) and `dtyp` (0, 65).
    public static func sampleDescription() -> BoxNode {
        let keyd = BoxNode.leaf("keyd", FourCC("mdta").bytes + Array(QuickTimeMovie.stillImageTimeKey.utf8))
        let dtyp = BoxNode.leaf("dtyp", [0, 0, 0, 0, 0, 0, 0, 65])
        let key = BoxNode.container(FourCC(rawValue: 1), [keyd, dtyp])
        return .container("mebx", prefix: [0, 0, 0, 0, 0, 0, 0, 1], [.container("keys", [key])])
    }

    private static func trackHeader(_ placement: Placement, duration: UInt64, large: Bool) -> BoxNode {
        var writer = ByteWriter(capacity: 96)
        if large {
            writer.u64(UInt64(placement.creationTime))
            writer.u64(UInt64(placement.creationTime))
            writer.u32(placement.trackID)
            writer.u32(0)
            writer.u64(duration)
        } else {
            writer.u32(placement.creationTime)
            writer.u32(placement.creationTime)
            writer.u32(placement.trackID)
            writer.u32(0)
            writer.u32(UInt32(duration))
        }
        writer.zeros(8)  // reserved
        writer.u16(0)  // layer
        writer.u16(0)  // alternate group
        writer.u16(0)  // volume
        writer.u16(0)  // reserved
        for value: UInt32 in [0x0001_0000, 0, 0, 0, 0x0001_0000, 0, 0, 0, 0x4000_0000] { writer.u32(value) }
        writer.u32(0)  // width
        writer.u32(0)  // height
        // Flags 0xF as in Apple's files: enabled, in movie, in preview, in poster.
        return .fullBox("tkhd", version: large ? 1 : 0, flags: 0xF, writer.bytes)
    }

    private static func editList(emptyTicks: UInt64, large: Bool) -> BoxNode {
        var writer = ByteWriter(capacity: 48)
        var entries: [(UInt64, Int64)] = []
        if emptyTicks > 0 { entries.append((emptyTicks, -1)) }
        entries.append((1, 0))
        writer.u32(UInt32(entries.count))
        for (duration, mediaTime) in entries {
            if large {
                writer.u64(duration)
                writer.i64(mediaTime)
            } else {
                writer.u32(UInt32(duration))
                writer.i32(Int32(mediaTime))
            }
            writer.u32(0x0001_0000)  // rate 1.0
        }
        return .fullBox("elst", version: large ? 1 : 0, writer.bytes)
    }

    private static func mediaHeader(_ placement: Placement) -> BoxNode {
        var writer = ByteWriter(capacity: 24)
        writer.u32(placement.creationTime)
        writer.u32(placement.creationTime)
        writer.u32(placement.movieTimescale)
        writer.u32(1)  // duration: one tick
        writer.u16(0x55C4)  // language: und
        writer.u16(0)  // quality
        return .fullBox("mdhd", writer.bytes)
    }

    /// A QuickTime `hdlr` payload after version/flags: component type, subtype, manufacturer
    /// `appl`, flags, mask 0, and the name as a Pascal string (as in Apple's files).
    private static func componentHandler(type: FourCC, subtype: FourCC, flags: UInt32, name: String) -> [UInt8] {
        var writer = ByteWriter()
        writer.fourCC(type)
        writer.fourCC(subtype)
        writer.fourCC("appl")
        writer.u32(flags)
        writer.u32(0)
        let nameBytes = Array(name.utf8.prefix(255))
        writer.u8(UInt8(nameBytes.count))
        writer.append(nameBytes)
        return writer.bytes
    }
}
