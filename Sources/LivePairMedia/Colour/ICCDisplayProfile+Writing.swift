extension ICCDisplayProfile {
    /// The profile's bytes: header, tag table, then the tags (each 4-byte aligned).
    static func build(name: String, primaries: Chromaticities, curve: [Double]) -> [UInt8] {
        let (columns, adaptation) = matrices(primaries)
        let tags: [(signature: String, data: [UInt8])] = [
            ("desc", multiLocalized(name)),
            ("cprt", multiLocalized("No copyright, use freely")),
            ("wtpt", xyzType(d50)),
            ("rXYZ", xyzType(columns[0])),
            ("gXYZ", xyzType(columns[1])),
            ("bXYZ", xyzType(columns[2])),
            ("rTRC", parametricCurve(curve)),
            ("chad", ascii("sf32") + [0, 0, 0, 0] + adaptation.flatMap { $0.flatMap(s15Fixed16) }),
        ]
        // The three TRCs share one curve, as in camera profiles.
        let signatures = tags.map(\.signature) + ["gTRC", "bTRC"]
        var body: [UInt8] = [], offsets: [String: (Int, Int)] = [:]
        let tableSize = 4 + 12 * signatures.count
        for tag in tags {
            offsets[tag.signature] = (128 + tableSize + body.count, tag.data.count)
            body += tag.data
            while body.count % 4 != 0 { body.append(0) }
        }
        offsets["gTRC"] = offsets["rTRC"]
        offsets["bTRC"] = offsets["rTRC"]
        var table = u32(signatures.count)
        for signature in signatures {
            let (offset, size) = offsets[signature] ?? (0, 0)
            table += ascii(signature) + u32(offset) + u32(size)
        }
        return header(size: 128 + table.count + body.count) + table + body
    }

    /// The 128-byte header (ICC.1:2022, 7.2): version 4.3, display class, RGB data, XYZ
    /// connection space, a fixed creation date (the bytes depend on the code points alone),
    /// perceptual intent, D50 illuminant, no profile ID.
    static func header(size: Int) -> [UInt8] {
        var bytes = u32(size) + [0, 0, 0, 0] + [0x04, 0x30, 0, 0] + ascii("mntr") + ascii("RGB ") + ascii("XYZ ")
        bytes += [2026, 1, 1, 0, 0, 0].flatMap { u16($0) }
        bytes += ascii("acsp") + [UInt8](repeating: 0, count: 4 + 4 + 4 + 4 + 8) + u32(0)
        bytes += d50.flatMap(s15Fixed16) + ascii("lvpr")
        bytes += [UInt8](repeating: 0, count: 128 - bytes.count)
        return bytes
    }

    /// A `mluc` tag holding `text` in en-US.
    static func multiLocalized(_ text: String) -> [UInt8] {
        let utf16 = text.utf16.flatMap { u16(Int($0)) }
        return ascii("mluc") + [0, 0, 0, 0] + u32(1) + u32(12) + ascii("enUS") + u32(utf16.count) + u32(28) + utf16
    }

    /// An `XYZ ` tag holding one XYZ number.
    static func xyzType(_ xyz: [Double]) -> [UInt8] { ascii("XYZ ") + [0, 0, 0, 0] + xyz.flatMap(s15Fixed16) }

    /// A `para` tag of function type 3 with parameters g, a, b, c, d.
    static func parametricCurve(_ parameters: [Double]) -> [UInt8] {
        ascii("para") + [0, 0, 0, 0] + u16(3) + [0, 0] + parameters.flatMap(s15Fixed16)
    }

    /// `value` as a big-endian signed 15.16 fixed-point number, rounded to the nearest.
    static func s15Fixed16(_ value: Double) -> [UInt8] {
        let fixed = Int32((value * 65_536).rounded())
        return u32(Int(UInt32(bitPattern: fixed)))
    }

    static func u32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
    static func u16(_ value: Int) -> [UInt8] { [8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
    static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }
}
