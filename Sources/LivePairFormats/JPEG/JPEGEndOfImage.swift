/// Where a JPEG's image data ends: the end of its EOI marker (`FF D9`), found by reading forward
/// from the start of scan in fixed-size chunks, so a huge file (a 2 GB sparse file behind a small
/// image) is walked with bounded memory and only the image itself is then read. In entropy-coded
/// data `FF` is always followed by `00` (stuffing) or a marker, and every scan of a progressive
/// JPEG lies before the one EOI, so the first `FF D9` after the SOS is the end.
public enum JPEGEndOfImage {
    /// The bytes read per step.
    public static let chunkSize = 1 << 20

    /// The offset just past the first `FF D9` at or after `scanStart` and before `end`; nil when
    /// there is none (the data is cut off, or runs to `end` without an end marker).
    public static func find(in source: any ByteSource, scanStart: UInt64, end: UInt64) throws(FormatError) -> UInt64? {
        var offset = scanStart
        var previousWasFF = false
        while offset < end {
            let count = Int(min(UInt64(chunkSize), end - offset))
            let chunk = try source.readExactly(at: offset, count: count, context: "JPEG image data")
            for index in chunk.indices {
                let byte = chunk[index]
                if previousWasFF, byte == 0xD9 { return offset + UInt64(index) + 1 }
                previousWasFF = byte == 0xFF
            }
            offset += UInt64(count)
        }
        return nil
    }
}
