/// The `tkhd` box: track id, enabled flag, size and transformation matrix.
public struct TrackHeader: Sendable, Equatable {
    /// The track id.
    public let trackID: UInt32
    /// The header flags (bit 0: enabled, bit 1: in movie, bit 2: in preview).
    public let flags: UInt32
    /// Duration in the movie's timescale.
    public let duration: UInt64
    /// Presentation width (16.16 fixed point converted).
    public let width: Double
    /// Presentation height.
    public let height: Double
    /// The matrix {a, b, u, c, d, v, x, y, w}: a-d, x, y are 16.16 fixed, u, v, w 2.30.
    public let matrix: [Int32]

    /// True when the track is enabled.
    public var isEnabled: Bool { flags & 1 != 0 }

    /// Reads `tkhd` (versions 0 and 1).
    init(_ box: Box) throws(FormatError) {
        var reader = try box.payloadReader()
        let full = try FullBoxHeader(&reader)
        flags = full.flags
        if full.version == 1 {
            try reader.skip(16)
            trackID = try reader.u32()
            try reader.skip(4)
            duration = try reader.u64()
        } else {
            try reader.skip(8)
            trackID = try reader.u32()
            try reader.skip(4)
            duration = UInt64(try reader.u32())
        }
        try reader.skip(8 + 2 + 2 + 2 + 2)  // reserved, layer, alternate group, volume, reserved
        var values: [Int32] = []
        for _ in 0..<9 { values.append(try reader.i32()) }
        matrix = values
        width = Double(try reader.u32()) / 65536
        height = Double(try reader.u32()) / 65536
    }

    /// The EXIF orientation (1-8) equivalent to the matrix's rotation/mirror, or nil when the matrix
    /// is not a multiple of 90 degrees.
    public var orientation: Int? {
        let sign = { (value: Int32) -> Int in value > 0 ? 1 : (value < 0 ? -1 : 0) }
        let a = sign(matrix[0]), b = sign(matrix[1]), c = sign(matrix[3]), d = sign(matrix[4])
        switch (a, b, c, d) {
        case (1, 0, 0, 1): return 1
        case (-1, 0, 0, 1): return 2
        case (-1, 0, 0, -1): return 3
        case (1, 0, 0, -1): return 4
        case (0, 1, 1, 0): return 5
        case (0, 1, -1, 0): return 6
        case (0, -1, -1, 0): return 7
        case (0, -1, 1, 0): return 8
        default: return nil
        }
    }
}

/// The `mdhd` box: the media timescale and duration.
public struct MediaHeader: Sendable, Equatable {
    /// Ticks per second of the track's media.
    public let timescale: UInt32
    /// Media duration in `timescale` ticks.
    public let duration: UInt64

    /// Reads `mdhd` (versions 0 and 1).
    init(_ box: Box) throws(FormatError) {
        var reader = try box.payloadReader()
        let full = try FullBoxHeader(&reader)
        if full.version == 1 {
            try reader.skip(16)
            timescale = try reader.u32()
            duration = try reader.u64()
        } else {
            try reader.skip(8)
            timescale = try reader.u32()
            duration = UInt64(try reader.u32())
        }
        guard timescale > 0 else { throw .invalid(context: "mdhd", reason: "media timescale is 0") }
    }
}

/// The `mvhd` box: the movie timescale, duration and creation time.
public struct MovieHeader: Sendable, Equatable {
    /// Seconds since 1904-01-01 UTC; 0 when unknown.
    public let creationTime: UInt64
    /// Ticks per second of the movie timeline.
    public let timescale: UInt32
    /// Movie duration in `timescale` ticks.
    public let duration: UInt64

    /// Reads `mvhd` (versions 0 and 1).
    init(_ box: Box) throws(FormatError) {
        var reader = try box.payloadReader()
        let full = try FullBoxHeader(&reader)
        if full.version == 1 {
            creationTime = try reader.u64()
            try reader.skip(8)
            timescale = try reader.u32()
            duration = try reader.u64()
        } else {
            creationTime = UInt64(try reader.u32())
            try reader.skip(4)
            timescale = try reader.u32()
            duration = UInt64(try reader.u32())
        }
        guard timescale > 0 else { throw .invalid(context: "mvhd", reason: "movie timescale is 0") }
    }

    /// Duration in seconds.
    public var durationSeconds: Double { Double(duration) / Double(timescale) }
}

extension TrackHeader {
    /// Clears the enabled flag (bit 0 of the flags) of the `tkhd` box `header`; the in-movie and
    /// in-preview flags stay.
    static func clearEnabledFlag(in header: inout BoxNode) throws(FormatError) {
        guard var payload = header.payload, payload.count >= 4 else {
            throw .invalid(context: "tkhd", reason: "too short for a track header")
        }
        payload[3] &= ~1
        header.content = .leaf(payload)
    }
}
