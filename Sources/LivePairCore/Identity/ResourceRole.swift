/// What part a file plays: half of an Apple Live Photo, a self-contained motion photo, or a plain photo or video.
public enum ResourceRole: String, Sendable, Equatable, CaseIterable {
    /// A still whose Apple maker note carries a content identifier (tag 0x11).
    case livePhotoStill = "live-photo-still"
    /// A movie whose metadata carries `com.apple.quicktime.content.identifier`.
    case livePhotoVideo = "live-photo-video"
    /// A still with an embedded video (Google Motion Photo, Samsung motion photo).
    case motionPhoto = "motion-photo"
    /// A still that is none of the above.
    case photo
    /// A movie that is not a Live Photo half.
    case video
    /// Edit data: an `.AAE` property list (Photos' adjustments), not media itself; it belongs to
    /// the edit group of the photo it was made on (see `EditGrouping`).
    case adjustmentData = "adjustment-data"
    /// Not a format LivePair reads.
    case unknown
}
