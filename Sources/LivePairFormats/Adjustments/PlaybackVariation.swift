/// How a Live Photo plays, as Photos' Loop, Bounce and Long Exposure effects set it
/// (PhotoKit's `PHAsset.playbackVariation`, with long exposure beside it).
public enum PlaybackVariation: String, Sendable, Equatable, CaseIterable {
    /// Plays once (no effect).
    case none
    /// Loops (Photos' "Loop": `AutoLoop` flavor `AutoLoop`).
    case loop
    /// Plays forward then backward (Photos' "Bounce": flavor `Mirror`).
    case bounce
    /// The frames blended into one still (Photos' "Long Exposure": flavor `LongExposure`).
    case longExposure

    /// The `flavor` of Photos' `AutoLoop` adjustment for this variation (nil for `none`).
    public var autoLoopFlavor: String? {
        switch self {
        case .none: return nil
        case .loop: return "AutoLoop"
        case .bounce: return "Mirror"
        case .longExposure: return "LongExposure"
        }
    }

    /// The variation of an `AutoLoop` flavor; nil for a flavor LivePair does not know.
    public init?(autoLoopFlavor flavor: String) {
        guard let variation = Self.allCases.first(where: { $0.autoLoopFlavor == flavor }) else { return nil }
        self = variation
    }
}
