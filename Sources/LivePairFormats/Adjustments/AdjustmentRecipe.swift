/// An edit recipe: what Photos' `com.apple.photo` adjustment data holds once inflated (and what
/// LivePair's own format holds): the master image it applies to, the editor's version, and the
/// ordered steps (`adjustments`). The Live Photo parts LivePair acts on are read from the steps:
/// key photo time, trim range, mute and playback variation.
public struct AdjustmentRecipe: Sendable, Equatable {
    /// The master (original) image an edit applies to, as `metadata` records it.
    public struct Master: Sendable, Equatable, Hashable {
        /// Stored width in pixels (before orientation).
        public var width: Int64
        /// Stored height in pixels (before orientation).
        public var height: Int64
        /// The Exif orientation (1-8), if written.
        public var orientation: Int64?

        /// Memberwise initializer.
        public init(width: Int64, height: Int64, orientation: Int64? = nil) {
            self.width = width
            self.height = height
            self.orientation = orientation
        }
    }

    /// The master image, from `metadata` (nil when absent or incomplete).
    public var master: Master?
    /// The recipe's own `formatVersion`.
    public var formatVersion: Int64?
    /// `versionInfo` as written (`appVersion`, `buildNumber`, `platform`, `schemaRevision`).
    public var versionInfo: JSONElement?
    /// The steps, in order.
    public var operations: [AdjustmentOperation]
    /// Top-level members not listed above, kept in order (and `metadata` members other than the size).
    public var otherMembers: [JSONMember]

    /// A recipe of `operations`.
    public init(
        master: Master? = nil, operations: [AdjustmentOperation], formatVersion: Int64? = 1,
        versionInfo: JSONElement? = nil, otherMembers: [JSONMember] = []
    ) {
        self.master = master
        self.operations = operations
        self.formatVersion = formatVersion
        self.versionInfo = versionInfo
        self.otherMembers = otherMembers
    }

    /// The identifiers of the steps, in order.
    public var identifiers: [String] { operations.map(\.identifier) }

    /// The last enabled step named `identifier`.
    public func operation(_ identifier: String) -> AdjustmentOperation? {
        operations.last { $0.identifier == identifier && $0.isEnabled }
    }

    /// The key photo's time in the movie (`LivePhotoKeyFrame`), when set and well formed.
    public var keyPhotoTime: AdjustmentTime? {
        AdjustmentTime(json: operation(AdjustmentOperation.Identifier.keyPhoto)?.settings["time"])
    }

    /// The kept part of the movie (`Trim`), when set and well formed.
    public var trimRange: AdjustmentTimeRange? {
        guard let settings = operation(AdjustmentOperation.Identifier.trim)?.settings,
            let start = AdjustmentTime(json: settings["startTime"]), let end = AdjustmentTime(json: settings["endTime"])
        else { return nil }
        return AdjustmentTimeRange(start: start, end: end)
    }

    /// Whether the movie's sound is off (`Mute`).
    public var isMuted: Bool { operation(AdjustmentOperation.Identifier.mute) != nil }

    /// The sound's volume (`AudioVolume`, LivePair's step), when set and a number from 0 to 1.
    public var audioVolume: Double? {
        guard let volume = operation(AdjustmentOperation.Identifier.audioVolume)?.settings["volume"]?.doubleValue,
            (0...1).contains(volume)
        else { return nil }
        return volume
    }

    /// The name of the frame filter step (`LivePairFilter`), as written: nil without one, a
    /// name that may not be one of `LivePhotoFilter` (read it with `LivePhotoFilter(rawValue:)`).
    public var filterName: String? {
        guard let step = operation(AdjustmentOperation.Identifier.filter) else { return nil }
        return step.settings["name"]?.stringValue ?? ""
    }

    /// Loop, Bounce or Long Exposure (`AutoLoop`): `.none` without the step, nil for a flavor
    /// LivePair does not know (see `autoLoopFlavor`).
    public var playbackVariation: PlaybackVariation? {
        guard let step = operation(AdjustmentOperation.Identifier.autoLoop) else { return PlaybackVariation.none }
        return step.settings["flavor"]?.stringValue.flatMap(PlaybackVariation.init(autoLoopFlavor:))
    }

    /// The `flavor` of the `AutoLoop` step as written.
    public var autoLoopFlavor: String? {
        operation(AdjustmentOperation.Identifier.autoLoop)?.settings["flavor"]?.stringValue
    }

    /// Reads a recipe from its JSON text (bounded by `limits`); throws when the text is not JSON or
    /// `adjustments` is missing or malformed.
    public static func read(json bytes: [UInt8], limits: ParseLimits = .default, context: String = "edit recipe")
        throws(FormatError) -> AdjustmentRecipe
    {
        let root = try JSONReader(limits: limits).read(bytes, context: context)
        guard case let .object(members) = root else { throw .invalid(context: context, reason: "not a JSON object") }
        guard let steps = root["adjustments"]?.arrayValue else {
            throw .invalid(context: context, reason: "no 'adjustments' array")
        }
        var operations: [AdjustmentOperation] = []
        for step in steps { operations.append(try AdjustmentOperation(json: step, context: context)) }
        var master: Master?
        var other: [JSONMember] = []
        for member in members {
            switch member.key {
            case "adjustments", "formatVersion", "versionInfo": continue
            case "metadata":
                if let width = member.value["masterWidth"]?.integerValue,
                    let height = member.value["masterHeight"]?.integerValue
                {
                    master = Master(width: width, height: height, orientation: member.value["orientation"]?.integerValue)
                }
                if case let .object(fields) = member.value {
                    let rest = fields.filter { !["masterWidth", "masterHeight", "orientation"].contains($0.key) }
                    if !rest.isEmpty || master == nil { other.append(JSONMember("metadata", .object(rest))) }
                }
            default: other.append(member)
            }
        }
        return AdjustmentRecipe(
            master: master, operations: operations, formatVersion: root["formatVersion"]?.integerValue,
            versionInfo: root["versionInfo"], otherMembers: other)
    }

    /// The recipe as JSON, in the member order Photos writes (`metadata`, `formatVersion`,
    /// `versionInfo`, `adjustments`).
    public var json: JSONElement {
        var members: [JSONMember] = []
        var metadata: [JSONMember] = []
        if let master {
            metadata.append(JSONMember("masterHeight", .integer(master.height)))
            metadata.append(JSONMember("masterWidth", .integer(master.width)))
            if let orientation = master.orientation { metadata.append(JSONMember("orientation", .integer(orientation))) }
        }
        var rest = otherMembers
        if let index = rest.firstIndex(where: { $0.key == "metadata" }), case let .object(fields) = rest[index].value {
            metadata += fields
            rest.remove(at: index)
        }
        if !metadata.isEmpty { members.append(JSONMember("metadata", .object(metadata))) }
        if let formatVersion { members.append(JSONMember("formatVersion", .integer(formatVersion))) }
        if let versionInfo { members.append(JSONMember("versionInfo", versionInfo)) }
        members.append(JSONMember("adjustments", .array(operations.map(\.json))))
        return .object(members + rest)
    }
}
