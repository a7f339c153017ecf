/// Builds ISO-BMFF / QuickTime boxes byte by byte for tests, including deliberately wrong sizes
/// and counts (a box claiming 2^63 bytes, a table claiming 2^32 - 1 entries).
///
/// Every function returns the encoded bytes; compose them by concatenation.
public enum BoxBuilder {
    /// `value` as `size` big-endian bytes (the low `size` bytes of `value`).
    public static func bigEndian(_ value: UInt64, _ size: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(size - 1 - $0))) }
    }

    /// A 16-bit big-endian value.
    public static func u16(_ value: UInt16) -> [UInt8] { bigEndian(UInt64(value), 2) }
    /// A 32-bit big-endian value.
    public static func u32(_ value: UInt32) -> [UInt8] { bigEndian(UInt64(value), 4) }
    /// A 64-bit big-endian value.
    public static func u64(_ value: UInt64) -> [UInt8] { bigEndian(value, 8) }

    /// The four bytes of a four-character code (must be 4 ASCII characters).
    public static func fourCC(_ type: String) -> [UInt8] {
        let bytes = Array(type.utf8)
        precondition(bytes.count == 4, "a box type has four bytes: \(type)")
        return bytes
    }

    /// A box with a correct 32-bit size.
    public static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        u32(UInt32(payload.count + 8)) + fourCC(type) + payload
    }

    /// A box whose 32-bit size field says `declaredSize`, whatever the payload's real length.
    public static func box(_ type: String, declaredSize: UInt32, _ payload: [UInt8]) -> [UInt8] {
        u32(declaredSize) + fourCC(type) + payload
    }

    /// A box with the 64-bit size form (size field 1); the 64-bit size is `declaredSize`, or the
    /// true size (16-byte header plus payload) when nil.
    public static func largeBox(_ type: String, declaredSize: UInt64? = nil, _ payload: [UInt8]) -> [UInt8] {
        u32(1) + fourCC(type) + u64(declaredSize ?? UInt64(payload.count + 16)) + payload
    }

    /// A full box: version, 24-bit flags, then `payload`, with a correct size.
    public static func fullBox(_ type: String, version: UInt8 = 0, flags: UInt32 = 0, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version] + bigEndian(UInt64(flags), 3) + payload)
    }

    /// An `ftyp` box.
    public static func ftyp(major: String, minor: UInt32 = 0, compatible: [String] = []) -> [UInt8] {
        box("ftyp", fourCC(major) + u32(minor) + compatible.flatMap(fourCC))
    }

    // MARK: Movies

    /// A version-0 `mvhd` with `timescale` and `duration`.
    public static func mvhd(timescale: UInt32 = 600, duration: UInt32 = 600) -> [UInt8] {
        var payload = u32(0) + u32(0) + u32(timescale) + u32(duration)
        payload += u32(0x0001_0000) + u16(0x0100) + [UInt8](repeating: 0, count: 10)
        payload += identityMatrix + [UInt8](repeating: 0, count: 24) + u32(2)
        return fullBox("mvhd", payload)
    }

    /// A version-0 `tkhd` (enabled) for track `trackID` of `width` x `height`.
    public static func tkhd(trackID: UInt32 = 1, width: UInt32 = 0, height: UInt32 = 0) -> [UInt8] {
        var payload = u32(0) + u32(0) + u32(trackID) + u32(0) + u32(600)
        payload += [UInt8](repeating: 0, count: 8) + u16(0) + u16(0) + u16(0) + u16(0)
        payload += identityMatrix + u32(width << 16) + u32(height << 16)
        return fullBox("tkhd", flags: 3, payload)
    }

    /// A version-0 `mdhd`.
    public static func mdhd(timescale: UInt32 = 600, duration: UInt32 = 600) -> [UInt8] {
        fullBox("mdhd", u32(0) + u32(0) + u32(timescale) + u32(duration) + u16(0x55C4) + u16(0))
    }

    /// An `hdlr` with `handler` (`vide`, `soun`, `meta`, `mdta`, `pict`).
    public static func hdlr(_ handler: String) -> [UInt8] {
        fullBox("hdlr", u32(0) + fourCC(handler) + [UInt8](repeating: 0, count: 12) + [0])
    }

    /// A table full box: version/flags, a u32 entry count (which may lie), then `entries`.
    public static func table(_ type: String, version: UInt8 = 0, count: UInt32, _ entries: [UInt8] = []) -> [UInt8] {
        fullBox(type, version: version, u32(count) + entries)
    }

    /// An `stsz` with a constant size (0 = per-sample sizes follow in `sizes`) and a sample count.
    public static func stsz(constantSize: UInt32 = 0, count: UInt32, _ sizes: [UInt8] = []) -> [UInt8] {
        fullBox("stsz", u32(constantSize) + u32(count) + sizes)
    }

    /// A `trak` holding `tkhd`, an optional `edts`, and `mdia/minf/stbl` with `stblChildren`.
    public static func trak(
        trackID: UInt32 = 1, handler: String = "vide", edts: [UInt8]? = nil, stblChildren: [[UInt8]] = []
    ) -> [UInt8] {
        let stbl = box("stbl", stblChildren.flatMap { $0 })
        let minf = box("minf", stbl)
        let mdia = box("mdia", mdhd() + hdlr(handler) + minf)
        return box("trak", tkhd(trackID: trackID) + (edts ?? []) + mdia)
    }

    /// A QuickTime-form `moov/meta` (no version/flags): `hdlr mdta`, `keys` declaring
    /// `declaredKeyCount` entries followed by `keys`, and an `ilst` holding `ilst`.
    public static func quickTimeMeta(declaredKeyCount: UInt32? = nil, keys: [String] = [], ilst: [UInt8] = []) -> [UInt8] {
        let entries = keys.flatMap { key in u32(UInt32(key.utf8.count + 8)) + fourCC("mdta") + Array(key.utf8) }
        let keysBox = fullBox("keys", u32(declaredKeyCount ?? UInt32(keys.count)) + entries)
        return box("meta", hdlr("mdta") + keysBox + box("ilst", ilst))
    }

    /// One `ilst` item for key index `keyIndex` (1-based) holding a UTF-8 `data` value.
    public static func ilstString(keyIndex: UInt32, _ text: String) -> [UInt8] {
        u32(UInt32(8 + 16 + text.utf8.count)) + u32(keyIndex) + box("data", u32(1) + u32(0) + Array(text.utf8))
    }

    /// `ftyp qt  ` + a `moov` with `mvhd` and `children`.
    public static func movie(_ children: [[UInt8]]) -> [UInt8] {
        ftyp(major: "qt  ", compatible: ["qt  "]) + box("moov", mvhd() + children.flatMap { $0 })
    }

    // MARK: HEIF

    /// `ftyp heic` + a `meta` full box with `hdlr pict` and `children`, then `trailing` bytes.
    public static func heif(metaChildren: [[UInt8]], trailing: [UInt8] = []) -> [UInt8] {
        ftyp(major: "heic", compatible: ["mif1", "heic"])
            + fullBox("meta", hdlr("pict") + metaChildren.flatMap { $0 }) + trailing
    }

    /// An `iloc` of `version` with 4-byte offsets and lengths, a declared item count, and raw `entries`.
    public static func iloc(version: UInt8 = 1, declaredCount: UInt32, _ entries: [UInt8] = []) -> [UInt8] {
        let count = version < 2 ? u16(UInt16(truncatingIfNeeded: declaredCount)) : u32(declaredCount)
        return fullBox("iloc", version: version, [0x44, 0x00] + count + entries)
    }

    /// An `iinf` of `version` (0: u16 count, 1: u32 count) with a declared count and raw `entries`.
    public static func iinf(version: UInt8 = 0, declaredCount: UInt32, _ entries: [UInt8] = []) -> [UInt8] {
        let count = version == 0 ? u16(UInt16(truncatingIfNeeded: declaredCount)) : u32(declaredCount)
        return fullBox("iinf", version: version, count + entries)
    }

    /// The identity matrix of `mvhd`/`tkhd` (16.16 and 2.30 fixed point).
    public static let identityMatrix: [UInt8] =
        u32(0x0001_0000) + u32(0) + u32(0) + u32(0) + u32(0x0001_0000) + u32(0) + u32(0) + u32(0) + u32(0x4000_0000)
}
