public import LivePairFormats

/// What a Live Photo edit changes, as PhotoKit's `PHLivePhotoEditingContext` exposes it: the key
/// photo (`photoTime`), the kept part of the movie (`trim`), the sound (`audioVolume`) and how it
/// plays (`playbackVariation`). Times are seconds on the original movie's timeline.
///
/// Settings are recorded in the edit's adjustment data (LivePair's own format,
/// `org.livepair.adjustments`) and read back from it, so an edit can be resumed; Photos'
/// `com.apple.photo` data gives its `LivePhotoKeyFrame`, `Trim`, `Mute` and `AutoLoop` steps as a
/// starting point (`init(recipe:)`).
public struct LivePhotoEditSettings: Sendable, Equatable {
    /// The key photo's time; nil keeps the movie's own still-image time (else its middle frame).
    public var photoTime: Double?
    /// The kept part of the movie; nil keeps all of it.
    public var trim: ClosedRange<Double>?
    /// The sound's volume from 0 to 1: 1 keeps it, 0 removes the audio track (mute), a value in
    /// between scales every sample by it (the sound alone encoded again as AAC, the video packets copied).
    public var audioVolume: Double
    /// Loop, Bounce, Long Exposure or none.
    public var playbackVariation: PlaybackVariation
    /// A named frame filter applied to every kept frame and the still (`LivePhotoFilter`), recorded
    /// in the adjustment data; nil for none. A `LivePhotoEditingContext.frameProcessor` runs after it.
    public var filter: LivePhotoFilter?

    /// Settings that change nothing unless given.
    public init(
        photoTime: Double? = nil, trim: ClosedRange<Double>? = nil, audioVolume: Double = 1,
        playbackVariation: PlaybackVariation = .none, filter: LivePhotoFilter? = nil
    ) {
        self.photoTime = photoTime
        self.trim = trim
        self.audioVolume = audioVolume
        self.playbackVariation = playbackVariation
        self.filter = filter
    }

    /// Whether the render has no sound.
    public var isMuted: Bool { audioVolume == 0 }

    /// The settings a recipe holds: its key photo time, trim range, mute and playback variation
    /// (an `AutoLoop` flavor LivePair does not know reads as none). Other steps are not settings
    /// of a Live Photo edit: see `unrenderedOperations(of:)`.
    public init(recipe: AdjustmentRecipe) {
        self.init(
            photoTime: recipe.keyPhotoTime?.seconds,
            trim: recipe.trimRange.flatMap { range in
                guard let start = range.start.seconds, let end = range.end.seconds, start <= end else { return nil }
                return start...end
            },
            audioVolume: recipe.isMuted ? 0 : recipe.audioVolume ?? 1, playbackVariation: recipe.playbackVariation ?? .none,
            filter: recipe.filterName.flatMap(LivePhotoFilter.init(rawValue:)))
    }

    /// The enabled steps of `recipe` that these settings do not carry and a render does not apply
    /// (`SmartBlackAndWhite`, `Crop`, `DepthEffect`, ...), in order; a filter step naming no
    /// `LivePhotoFilter` as `LivePairFilter(name)`.
    public static func unrenderedOperations(of recipe: AdjustmentRecipe) -> [String] {
        let known: Set<String> = [
            AdjustmentOperation.Identifier.keyPhoto, AdjustmentOperation.Identifier.trim,
            AdjustmentOperation.Identifier.mute, AdjustmentOperation.Identifier.autoLoop,
            AdjustmentOperation.Identifier.audioVolume, AdjustmentOperation.Identifier.filter,
        ]
        var unrendered = recipe.operations.filter { $0.isEnabled && !known.contains($0.identifier) }.map(\.identifier)
        if let name = recipe.filterName, LivePhotoFilter(rawValue: name) == nil {
            unrendered.append("\(AdjustmentOperation.Identifier.filter)(\(name))")
        }
        return unrendered
    }

    /// The steps of these settings, in the order Photos writes them: key photo, trim, mute,
    /// playback variation; a volume between 0 and 1 as LivePair's `AudioVolume` step after mute's
    /// place; a filter as LivePair's `LivePairFilter` step last. A time is written on a 600 ticks-per-second timescale (Apple's) when
    /// it falls on a tick, else in microseconds.
    public var operations: [AdjustmentOperation] {
        var steps: [AdjustmentOperation] = []
        if let photoTime { steps.append(.keyPhoto(at: Self.time(photoTime))) }
        if let trim { steps.append(.trim(AdjustmentTimeRange(start: Self.time(trim.lowerBound), end: Self.time(trim.upperBound)))) }
        if isMuted {
            steps.append(.mute)
        } else if audioVolume < 1 {
            steps.append(.audioVolume(audioVolume))
        }
        if let loop = AdjustmentOperation.playback(playbackVariation) { steps.append(loop) }
        if let filter { steps.append(.filter(filter)) }
        return steps
    }

    /// `seconds` as a `CMTime`: on 1/600 s when exact, else on 1/1,000,000 s.
    static func time(_ seconds: Double) -> AdjustmentTime {
        let ticks = seconds * 600
        if abs(ticks - ticks.rounded()) < 1e-9 { return AdjustmentTime(value: Int64(ticks.rounded()), timescale: 600) }
        return AdjustmentTime(value: Int64((seconds * 1_000_000).rounded()), timescale: 1_000_000)
    }
}
