/// Which naming rule tied a Takeout JSON sidecar to its photo or movie.
public enum TakeoutSidecarRule: String, Sendable, Equatable, Comparable {
    /// `NAME.json` (also `NAME.jpg(1).json` for `NAME(1).jpg`).
    case exact
    /// `NAME.supplemental-metadata.json` (and its `(1)` form).
    case supplementalMetadata = "supplemental-metadata"
    /// The whole name cut at 46-51 characters: `NAME.supplemental-metad.json`, `NAME.suppl.json`,
    /// `NAME.json` with `NAME` itself cut.
    case truncated
    /// `STEM.json` for `STEM.jpg` (old exports).
    case stem

    private var rank: Int {
        switch self {
        case .exact: return 0
        case .supplementalMetadata: return 1
        case .truncated: return 2
        case .stem: return 3
        }
    }

    /// Stronger rules first.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
}
