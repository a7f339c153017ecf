/// The named frame filters a Live Photo edit made by LivePair can apply and record in its
/// adjustment data (LivePair's `LivePairFilter` step, `settings.name`), so the edit can be resumed
/// and rendered again: a closed, documented set. An arbitrary frame processor (a closure) is not
/// data and is never recorded.
public enum LivePhotoFilter: String, Sendable, Equatable, CaseIterable {
    /// Every colour channel inverted (`255 - value`), alpha kept.
    case invert
    /// Black and white: each pixel's Rec. 709 luma (`0.2126 R + 0.7152 G + 0.0722 B`, rounded) in
    /// every colour channel, alpha kept.
    case mono

    /// The names, in order: `invert`, `mono`.
    public static var names: [String] { allCases.map(\.rawValue) }
}
