/// What validation does and the thresholds its rules apply. Every threshold is documented in
/// `docs/validation.md`.
public struct ValidationOptions: Sendable, Equatable {
    /// Largest accepted distance between the still's and the movie's capture times, in seconds.
    /// Cameras date the movie from its first frame, about 1.5 s before the still; 5 s leaves room
    /// for movie dates rounded to the second.
    public static let defaultCaptureTimeTolerance = 5.0
    /// Durations of Live Photo movies and motion-photo videos outside this range are unusual (seconds).
    /// Camera Live Photos last about 1.2 to 3 s, Pixel motion photos from about 0.7 s.
    public static let defaultDurationRange: ClosedRange<Double> = 0.5...6.0
    /// Largest relative difference between the upright aspect ratios of still and movie that
    /// still counts as the same shape (2 %, which absorbs 1920x1440 against 4032x3024 rounding).
    public static let defaultAspectTolerance = 0.02
    /// Longest side of the decoded movie frame in deep validation (the frame is reduced while
    /// converting; decoding itself is full size).
    public static let defaultDeepFrameDimension = 512

    /// Decode the still's primary image and the movie's frame at the still-image time (`--deep`).
    public var deep: Bool
    /// See `defaultCaptureTimeTolerance`.
    public var captureTimeTolerance: Double
    /// See `defaultDurationRange`.
    public var durationRange: ClosedRange<Double>
    /// See `defaultAspectTolerance`.
    public var aspectTolerance: Double
    /// See `defaultDeepFrameDimension`.
    public var deepFrameDimension: Int
    /// Validate assets on all cores (the report is in the same deterministic order either way).
    public var parallel: Bool

    /// Options with the documented defaults; metadata only unless `deep`.
    public init(
        deep: Bool = false, captureTimeTolerance: Double = Self.defaultCaptureTimeTolerance,
        durationRange: ClosedRange<Double> = Self.defaultDurationRange, aspectTolerance: Double = Self.defaultAspectTolerance,
        deepFrameDimension: Int = Self.defaultDeepFrameDimension, parallel: Bool = true
    ) {
        self.deep = deep
        self.captureTimeTolerance = captureTimeTolerance
        self.durationRange = durationRange
        self.aspectTolerance = aspectTolerance
        self.deepFrameDimension = deepFrameDimension
        self.parallel = parallel
    }
}
