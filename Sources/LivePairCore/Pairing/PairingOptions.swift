/// How `Pairing.pair` and `PairingSession` pair resources.
///
/// The defaults pair by content identifier only, which is what Photos does. Name matching is an
/// explicit, opt-in fallback for files that lost their identifiers.
public struct PairingOptions: Sendable, Equatable {
    /// When true, a still and a movie that both LACK a content identifier pair when they are in the
    /// same folder, have the same normalised stem (see `StemNormalizer`) and were captured within
    /// `captureTimeTolerance` of each other. Such pairs are weak (`LivePhotoPair.isWeak`) and have
    /// no identifier. A file that has an identifier is never paired by name. Default: false.
    public var matchNames: Bool
    /// The largest difference between the capture times of a still and a movie, in seconds, for
    /// name matching. Default: 3 seconds (an iPhone writes the movie's creation date within about
    /// 1.5 s of the still's). Capture times are compared as instants when both carry a UTC offset,
    /// and as wall-clock times otherwise.
    public var captureTimeTolerance: Double
    /// When true, name matching also pairs halves whose capture time is unknown on one or both
    /// sides (Google Takeout movies have zero dates); the tolerance then cannot be checked.
    /// Default: false: without both dates, recycled names (`IMG_9140` from two months) cannot be
    /// told apart, so such files stay unpaired.
    public var matchNamesWithoutCaptureDate: Bool
    /// The size of each read when comparing file contents for duplicates, in bytes (at least 4096).
    /// Default: 1 MiB.
    public var comparisonChunkSize: Int

    /// The default capture-time tolerance for name matching: 3 seconds.
    public static let defaultCaptureTimeTolerance: Double = 3

    /// Options with every value given or defaulted.
    public init(
        matchNames: Bool = false,
        captureTimeTolerance: Double = PairingOptions.defaultCaptureTimeTolerance,
        matchNamesWithoutCaptureDate: Bool = false,
        comparisonChunkSize: Int = 1 << 20
    ) {
        self.matchNames = matchNames
        self.captureTimeTolerance = captureTimeTolerance
        self.matchNamesWithoutCaptureDate = matchNamesWithoutCaptureDate
        self.comparisonChunkSize = max(4096, comparisonChunkSize)
    }
}
