import LivePair

/// Uniform type identifiers for the formats LivePair reads, and their preferred extensions.
enum UniformTypeIdentifiers {
    /// The identifier for `format`, nil for unknown formats.
    static func identifier(for format: FileFormat) -> String? {
        switch format {
        case .jpeg: return "public.jpeg"
        case .heic: return "public.heic"
        case .avif: return "public.avif"
        case .quickTime: return "com.apple.quicktime-movie"
        case .mp4: return "public.mpeg-4"
        case .png: return "public.png"
        case .webp: return "org.webmproject.webp"
        case .gif: return "com.compuserve.gif"
        case .tiff: return "public.tiff"
        case .unknown: return nil
        }
    }

    /// The usual extension for `identifier`, nil when unknown.
    static func preferredExtension(_ identifier: String?) -> String? {
        switch identifier {
        case "public.jpeg": return "jpg"
        case "public.heic": return "heic"
        case "public.avif": return "avif"
        case "com.apple.quicktime-movie": return "mov"
        case "public.mpeg-4": return "mp4"
        case "public.png": return "png"
        case "org.webmproject.webp": return "webp"
        case "com.compuserve.gif": return "gif"
        case "public.tiff": return "tiff"
        case "com.apple.photos.adjustment-data": return "aae"
        default: return nil
        }
    }
}
