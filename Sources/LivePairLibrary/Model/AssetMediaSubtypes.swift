/// Refinements of an asset's media type, as PhotoKit's `PHAssetMediaSubtype` (same bit values).
public struct AssetMediaSubtypes: OptionSet, Sendable, Hashable {
    /// The bits.
    public let rawValue: Int

    /// Subtypes from their bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// A panorama.
    public static let photoPanorama = AssetMediaSubtypes(rawValue: 1 << 0)
    /// An HDR photo.
    public static let photoHDR = AssetMediaSubtypes(rawValue: 1 << 1)
    /// A screenshot.
    public static let photoScreenshot = AssetMediaSubtypes(rawValue: 1 << 2)
    /// A Live Photo (still plus paired movie) or a motion photo (still with an embedded movie).
    public static let photoLive = AssetMediaSubtypes(rawValue: 1 << 3)
    /// A photo with depth data.
    public static let photoDepthEffect = AssetMediaSubtypes(rawValue: 1 << 4)
    /// A high frame rate movie.
    public static let videoHighFrameRate = AssetMediaSubtypes(rawValue: 1 << 17)
    /// A time-lapse movie.
    public static let videoTimelapse = AssetMediaSubtypes(rawValue: 1 << 18)

    /// The names of the subtypes set, for reports (`photoLive`, ...).
    public var names: [String] {
        let named: [(AssetMediaSubtypes, String)] = [
            (.photoPanorama, "photoPanorama"), (.photoHDR, "photoHDR"), (.photoScreenshot, "photoScreenshot"),
            (.photoLive, "photoLive"), (.photoDepthEffect, "photoDepthEffect"),
            (.videoHighFrameRate, "videoHighFrameRate"), (.videoTimelapse, "videoTimelapse"),
        ]
        return named.filter { contains($0.0) }.map(\.1)
    }
}
