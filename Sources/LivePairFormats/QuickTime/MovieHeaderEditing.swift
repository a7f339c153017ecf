/// Small edits of a movie's `mvhd` box: the next track id and the duration.
public enum MovieHeaderEditing {
    /// The `next_track_ID` field (the last 4 bytes of `mvhd`).
    public static func nextTrackID(of mvhd: BoxNode) throws(FormatError) -> UInt32 {
        guard let payload = mvhd.payload, payload.count >= 100 else {
            throw .invalid(context: "mvhd", reason: "too short for a movie header")
        }
        var reader = ByteReader(payload, context: "mvhd")
        try reader.seek(to: payload.count - 4)
        return try reader.u32()
    }

    /// Sets `next_track_ID`.
    public static func setNextTrackID(_ id: UInt32, in mvhd: inout BoxNode) throws(FormatError) {
        guard var payload = mvhd.payload, payload.count >= 100 else {
            throw .invalid(context: "mvhd", reason: "too short for a movie header")
        }
        payload.replaceSubrange(payload.count - 4..<payload.count, with: ByteWriter.encode(UInt64(id), byteCount: 4))
        mvhd.content = .leaf(payload)
    }

    /// The duration in movie ticks.
    public static func duration(of mvhd: BoxNode) throws(FormatError) -> UInt64 {
        var reader = mvhd.payloadReader()
        let header = try FullBoxHeader(&reader)
        if header.version == 1 {
            try reader.skip(20)
            return try reader.u64()
        }
        try reader.skip(12)
        return UInt64(try reader.u32())
    }

    /// Raises the duration to at least `ticks` (never lowers it).
    public static func extendDuration(toAtLeast ticks: UInt64, in mvhd: inout BoxNode) throws(FormatError) {
        guard try duration(of: mvhd) < ticks, var payload = mvhd.payload else { return }
        if payload[0] == 1 {
            payload.replaceSubrange(24..<32, with: ByteWriter.encode(ticks, byteCount: 8))
        } else {
            guard ticks <= UInt64(UInt32.max) else {
                throw .unsupported(context: "mvhd", reason: "duration \(ticks) does not fit a version 0 header")
            }
            payload.replaceSubrange(16..<20, with: ByteWriter.encode(ticks, byteCount: 4))
        }
        mvhd.content = .leaf(payload)
    }

    /// The creation time (seconds since 1904), clamped to 32 bits.
    public static func creationTime(of mvhd: BoxNode) -> UInt32 {
        var reader = mvhd.payloadReader()
        guard let header = try? FullBoxHeader(&reader) else { return 0 }
        if header.version == 1 { return UInt32(clamping: (try? reader.u64()) ?? 0) }
        return (try? reader.u32()) ?? 0
    }
}
