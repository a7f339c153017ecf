/// How often and how patiently a request is tried again after a server error (5xx, 429) or a
/// transport failure (connection refused or reset, timeout): exponential backoff with jitter.
public struct S3RetryPolicy: Sendable, Equatable {
    /// Attempts in all, the first included (at least 1).
    public var attempts: Int
    /// The wait before the second attempt, in milliseconds; doubled before each further one.
    public var initialDelayMilliseconds: Int
    /// The longest wait between two attempts, in milliseconds.
    public var maximumDelayMilliseconds: Int

    /// A policy; the default tries 4 times, waiting about 0.2, 0.4 and 0.8 s between attempts.
    public init(attempts: Int = 4, initialDelayMilliseconds: Int = 200, maximumDelayMilliseconds: Int = 5_000) {
        self.attempts = max(1, attempts)
        self.initialDelayMilliseconds = max(0, initialDelayMilliseconds)
        self.maximumDelayMilliseconds = max(0, maximumDelayMilliseconds)
    }

    /// The wait after failed attempt `attempt` (1-based): the doubled delay, capped, plus up to half
    /// of it at random so that nodes retrying together spread out.
    func delayMilliseconds(after attempt: Int) -> Int {
        let doubled = initialDelayMilliseconds << min(attempt - 1, 20)
        let base = min(doubled, maximumDelayMilliseconds)
        return base + Int.random(in: 0...max(0, base / 2))
    }
}
