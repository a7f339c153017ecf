/// The video frame nearest a Live Photo movie's still-image time, found while the movie's `moov`
/// is parsed for identification, so that validation need not open and parse the movie again.
public struct StillImageFrame: Sendable, Equatable {
    /// The frame's time on the movie timeline, in seconds.
    public let time: Double
    /// How far it is from the still-image time, in seconds.
    public let distance: Double
    /// The local frame interval: the gap between the frames either side of the still-image time.
    public let interval: Double

    /// Memberwise initializer.
    public init(time: Double, distance: Double, interval: Double) {
        self.time = time
        self.distance = distance
        self.interval = interval
    }
}
