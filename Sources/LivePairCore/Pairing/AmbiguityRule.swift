/// The rule that decided an `AmbiguousMatch`, stored in its `rule` text.
///
/// When one identifier has several candidate stills or movies (after byte-identical duplicates are
/// set aside), every (still, movie) combination is a candidate pair, and the rules below are applied
/// in order. A rule that keeps some but not all candidates narrows the set; the first rule that
/// leaves exactly one candidate is the one reported. A rule that keeps all or none changes nothing.
public enum AmbiguityRule: String, Sendable, Equatable, CaseIterable {
    /// The still and the movie are in the same folder.
    case sameFolder = "same-folder"
    /// The still and the movie have the same normalised stem (see `StemNormalizer`).
    case sameStem = "same-stem"
    /// The still and the movie have the smallest difference between their capture times (pairs
    /// with a known difference come before pairs with an unknown one).
    case nearestCaptureTime = "nearest-capture-time"
    /// Nothing else decided: the candidate whose still path, then movie path, sorts first.
    case firstByPath = "first-by-path"
    /// Several stills and no movie, or several movies and no still: nothing could be chosen
    /// (`chosen` is nil). Pairing lists such files as orphans only; validation reports them with
    /// this rule in its `ambiguous-pair` finding.
    case noPartner = "no-partner"
}

extension AmbiguousMatch {
    /// The rule that decided, as a value; nil only for a rule text this version does not know.
    public var decidingRule: AmbiguityRule? { AmbiguityRule(rawValue: rule) }
}
