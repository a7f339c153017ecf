import LivePairFormats

/// What a file contains, decided from its bytes, never from its extension.
public enum FileFormat: String, Sendable, Equatable, CaseIterable {
    /// JPEG (`FF D8 FF`).
    case jpeg
    /// HEIF with HEVC images (`ftyp` brand `heic`, `heix`, `mif1`, ...).
    case heic
    /// AVIF (`ftyp` brand `avif`).
    case avif
    /// QuickTime movie (`ftyp` brand `qt  `, or a movie without `ftyp`).
    case quickTime = "mov"
    /// MPEG-4 movie (`ftyp` brands `isom`, `mp41`, `mp42`, ...).
    case mp4
    /// PNG.
    case png
    /// WebP.
    case webp
    /// GIF.
    case gif
    /// TIFF (including DNG).
    case tiff
    /// Anything else.
    case unknown

    /// True for still-image formats.
    public var isStill: Bool { [.jpeg, .heic, .avif, .png, .webp, .gif, .tiff].contains(self) }
    /// True for movie formats.
    public var isMovie: Bool { self == .quickTime || self == .mp4 }

    /// The file extensions that name this format truthfully (lowercase).
    public var extensions: Set<String> {
        switch self {
        case .jpeg: return ["jpg", "jpeg", "jpe"]
        case .heic: return ["heic", "heif", "hif"]
        case .avif: return ["avif"]
        case .quickTime: return ["mov", "qt", "mp4"]  // Google Takeout renames QuickTime movies to .MP4
        case .mp4: return ["mp4", "m4v", "mov"]
        case .png: return ["png"]
        case .webp: return ["webp"]
        case .gif: return ["gif"]
        case .tiff: return ["tif", "tiff", "dng"]
        case .unknown: return []
        }
    }

    /// Decides the format from the first bytes of a file (16 are enough; more is fine).
    public static func detect(leadingBytes bytes: [UInt8]) -> FileFormat {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<offset + prefix.count]) == prefix
        }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        guard bytes.count >= 8 else { return .unknown }
        let type = FourCC(rawValue: bytes[4..<8].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        if type == "ftyp", bytes.count >= 12 {
            let major = FourCC(rawValue: bytes[8..<12].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            var brands = [major]
            var index = 16
            while index + 4 <= bytes.count {
                brands.append(FourCC(rawValue: bytes[index..<index + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }))
                index += 4
            }
            return format(brands: brands)
        }
        // QuickTime movies may start without ftyp (some exported Live Photo movies start with `wide`).
        if ["wide", "mdat", "moov", "free", "skip", "pnot"].contains(type) { return .quickTime }
        return .unknown
    }

    /// The format named by ISO-BMFF brands, major brand first.
    static func format(brands: [FourCC]) -> FileFormat {
        let heifBrands: Set<FourCC> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1", "mif2"]
        guard let major = brands.first else { return .unknown }
        if major == "qt  " { return .quickTime }
        if major == "avif" || major == "avis" { return .avif }
        if heifBrands.contains(major) { return .heic }
        let movieBrands: Set<FourCC> = ["isom", "iso2", "iso4", "iso5", "iso6", "mp41", "mp42", "avc1", "M4V ", "3gp4", "3gp5", "3g2a", "dash", "MSNV"]
        if movieBrands.contains(major) { return .mp4 }
        if brands.contains("qt  ") { return .quickTime }
        if brands.contains(where: heifBrands.contains) { return .heic }
        return .unknown
    }
}
