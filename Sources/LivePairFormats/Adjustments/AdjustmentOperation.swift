/// One step of an edit recipe: `{identifier, settings, enabled, formatVersion}` in the
/// `adjustments` array of Photos' (and LivePair's) JSON.
public struct AdjustmentOperation: Sendable, Equatable {
    /// What the step does: `LivePhotoKeyFrame`, `Trim`, `Mute`, `AutoLoop`, `Crop`, `DepthEffect`, ...
    public var identifier: String
    /// The step's parameters (an object; `{}` when absent).
    public var settings: JSONElement
    /// The `enabled` flag as written; nil when absent (Photos omits it for steps that are on).
    public var enabled: Bool?
    /// The step's format version.
    public var formatVersion: Int64?
    /// The format the step belongs to (`com.apple.photo`).
    public var formatIdentifier: String?
    /// Members of the step not listed above, kept in order.
    public var otherMembers: [JSONMember]

    /// Memberwise initializer.
    public init(
        identifier: String, settings: JSONElement = .emptyObject, enabled: Bool? = true, formatVersion: Int64? = 1,
        formatIdentifier: String? = nil, otherMembers: [JSONMember] = []
    ) {
        self.identifier = identifier
        self.settings = settings
        self.enabled = enabled
        self.formatVersion = formatVersion
        self.formatIdentifier = formatIdentifier
        self.otherMembers = otherMembers
    }

    /// Whether the step applies: `enabled` is true or absent.
    public var isEnabled: Bool { enabled ?? true }

    /// Identifiers of the steps LivePair reads the meaning of.
    public enum Identifier {
        /// The key photo (`settings.time`, a `CMTime`).
        public static let keyPhoto = "LivePhotoKeyFrame"
        /// The movie's kept range (`settings.startTime`, `settings.endTime`).
        public static let trim = "Trim"
        /// The movie's sound off.
        public static let mute = "Mute"
        /// Loop, Bounce or Long Exposure (`settings.flavor`).
        public static let autoLoop = "AutoLoop"
        /// The sound's volume between 0 and 1 (`settings.volume`): LivePair's own step, as
        /// PhotoKit's `PHLivePhotoEditingContext.audioVolume` (Photos writes no such step).
        public static let audioVolume = "AudioVolume"
        /// A named frame filter (`settings.name`, one of `LivePhotoFilter`): LivePair's own step.
        public static let filter = "LivePairFilter"
    }

    /// A key-photo step at `time`.
    public static func keyPhoto(at time: AdjustmentTime) -> AdjustmentOperation {
        AdjustmentOperation(identifier: Identifier.keyPhoto, settings: .object([JSONMember("time", time.json)]))
    }

    /// A trim step keeping `range`.
    public static func trim(_ range: AdjustmentTimeRange) -> AdjustmentOperation {
        AdjustmentOperation(
            identifier: Identifier.trim,
            settings: .object([JSONMember("startTime", range.start.json), JSONMember("endTime", range.end.json)]))
    }

    /// A mute step.
    public static let mute = AdjustmentOperation(identifier: Identifier.mute)

    /// A volume step scaling the sound by `volume` (between 0 and 1).
    public static func audioVolume(_ volume: Double) -> AdjustmentOperation {
        AdjustmentOperation(identifier: Identifier.audioVolume, settings: .object([JSONMember("volume", .number(volume))]))
    }

    /// A frame filter step naming `filter`.
    public static func filter(_ filter: LivePhotoFilter) -> AdjustmentOperation {
        AdjustmentOperation(identifier: Identifier.filter, settings: .object([JSONMember("name", .string(filter.rawValue))]))
    }

    /// A Loop, Bounce or Long Exposure step (nil for `.none`).
    public static func playback(_ variation: PlaybackVariation) -> AdjustmentOperation? {
        guard let flavor = variation.autoLoopFlavor else { return nil }
        return AdjustmentOperation(
            identifier: Identifier.autoLoop, settings: .object([JSONMember("flavor", .string(flavor))]))
    }

    /// Reads one element of `adjustments`; throws when it is not an object with a string `identifier`.
    init(json: JSONElement, context: String) throws(FormatError) {
        guard case let .object(members) = json, let identifier = json["identifier"]?.stringValue else {
            throw .invalid(context: context, reason: "an adjustment is not an object with an identifier")
        }
        self.identifier = identifier
        self.settings = json["settings"] ?? .emptyObject
        self.enabled = json["enabled"]?.boolValue
        self.formatVersion = json["formatVersion"]?.integerValue
        self.formatIdentifier = json["formatIdentifier"]?.stringValue
        let known: Set<String> = ["identifier", "settings", "enabled", "formatVersion", "formatIdentifier"]
        self.otherMembers = members.filter { !known.contains($0.key) }
    }

    /// The step as JSON, in the member order Photos writes.
    public var json: JSONElement {
        var members: [JSONMember] = []
        if let formatVersion { members.append(JSONMember("formatVersion", .integer(formatVersion))) }
        if let enabled { members.append(JSONMember("enabled", .bool(enabled))) }
        members.append(JSONMember("settings", settings))
        members.append(JSONMember("identifier", .string(identifier)))
        if let formatIdentifier { members.append(JSONMember("formatIdentifier", .string(formatIdentifier))) }
        return .object(members + otherMembers)
    }
}
