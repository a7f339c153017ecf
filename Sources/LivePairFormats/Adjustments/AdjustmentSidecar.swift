/// An `.AAE` file: a property list (XML, sometimes binary) holding one edit's `AdjustmentData`
/// and how it was made.
///
/// Keys: `adjustmentFormatIdentifier`, `adjustmentFormatVersion`, `adjustmentData` (required),
/// `adjustmentBaseVersion`, `adjustmentEditorBundleID`, `adjustmentTimestamp`,
/// `adjustmentRenderTypes` (optional). Other keys are kept, so writing a file read gives its
/// entries back.
public struct AdjustmentSidecar: Sendable, Equatable {
    /// The editor's format, version and data.
    public var adjustmentData: AdjustmentData
    /// The version the edit was made on (0: the original).
    public var baseVersion: Int64?
    /// The bundle identifier of the app that made the edit (`com.apple.Photos`).
    public var editorBundleID: String?
    /// When the edit was made.
    public var timestamp: PropertyListDate?
    /// Photos' render-type bits (`24578` for a depth-effect edit of a Live Photo).
    public var renderTypes: Int64?
    /// Entries with other keys, in order.
    public var otherEntries: [PropertyListEntry]

    /// Memberwise initializer.
    public init(
        adjustmentData: AdjustmentData, baseVersion: Int64? = 0, editorBundleID: String? = nil,
        timestamp: PropertyListDate? = nil, renderTypes: Int64? = nil, otherEntries: [PropertyListEntry] = []
    ) {
        self.adjustmentData = adjustmentData
        self.baseVersion = baseVersion
        self.editorBundleID = editorBundleID
        self.timestamp = timestamp
        self.renderTypes = renderTypes
        self.otherEntries = otherEntries
    }

    private enum Key {
        static let formatIdentifier = "adjustmentFormatIdentifier"
        static let formatVersion = "adjustmentFormatVersion"
        static let data = "adjustmentData"
        static let baseVersion = "adjustmentBaseVersion"
        static let editor = "adjustmentEditorBundleID"
        static let timestamp = "adjustmentTimestamp"
        static let renderTypes = "adjustmentRenderTypes"
        static let all: Set<String> = [formatIdentifier, formatVersion, data, baseVersion, editor, timestamp, renderTypes]
    }

    /// Reads an `.AAE` property list (XML or binary), bounded by `limits`. Throws when it is not a
    /// property list, its root is not a dictionary, or a required key is missing or of a wrong type.
    public static func read(_ bytes: [UInt8], limits: ParseLimits = .default, context: String = "AAE")
        throws(FormatError) -> AdjustmentSidecar
    {
        guard case let .dictionary(root) = try PropertyListReader(limits: limits).read(bytes, context: context) else {
            throw .invalid(context: context, reason: "the property list's root is not a dictionary")
        }
        guard let identifier = root[Key.formatIdentifier]?.stringValue else {
            throw .invalid(context: context, reason: "no \(Key.formatIdentifier) string")
        }
        let version: String
        switch root[Key.formatVersion] {
        case let .string(text)?: version = text
        case let .integer(number)?: version = String(number)
        case let .real(number)?: version = String(number)
        default: throw .invalid(context: context, reason: "no \(Key.formatVersion)")
        }
        guard let data = root[Key.data]?.dataValue else {
            throw .invalid(context: context, reason: "no \(Key.data) data")
        }
        return AdjustmentSidecar(
            adjustmentData: AdjustmentData(formatIdentifier: identifier, formatVersion: version, data: data),
            baseVersion: root[Key.baseVersion]?.integerValue, editorBundleID: root[Key.editor]?.stringValue,
            timestamp: root[Key.timestamp]?.dateValue, renderTypes: root[Key.renderTypes]?.integerValue,
            otherEntries: root.entries.filter { !Key.all.contains($0.key) })
    }

    /// The property list, keys sorted as Apple's writer sorts them.
    public var propertyList: PropertyListValue {
        var entries = otherEntries
        entries.append(PropertyListEntry(Key.formatIdentifier, .string(adjustmentData.formatIdentifier)))
        entries.append(PropertyListEntry(Key.formatVersion, .string(adjustmentData.formatVersion)))
        entries.append(PropertyListEntry(Key.data, .data(adjustmentData.data)))
        if let baseVersion { entries.append(PropertyListEntry(Key.baseVersion, .integer(baseVersion))) }
        if let editorBundleID { entries.append(PropertyListEntry(Key.editor, .string(editorBundleID))) }
        if let timestamp { entries.append(PropertyListEntry(Key.timestamp, .date(timestamp))) }
        if let renderTypes { entries.append(PropertyListEntry(Key.renderTypes, .integer(renderTypes))) }
        entries.sort { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
        return .dictionary(PropertyListDictionary(entries))
    }

    /// The `.AAE` file as an XML property list.
    public var xmlBytes: [UInt8] { XMLPropertyListWriter.write(propertyList) }

    /// Whether LivePair can read the recipe in the data: Photos' `com.apple.photo` or LivePair's own.
    public var hasReadableRecipe: Bool {
        [AdjustmentData.photosFormatIdentifier, LivePairAdjustments.formatIdentifier]
            .contains(adjustmentData.formatIdentifier)
    }

    /// The edit recipe in the data, bounded by `limits`: `com.apple.photo` data is inflated then
    /// read as JSON; LivePair's own data is read as JSON, or inflated first when it is not JSON.
    /// Nil for other editors' formats, whose data stays opaque. Throws when a readable format's data
    /// is damaged, or inflates past `limits.maximumInflatedBytes`.
    public func recipe(limits: ParseLimits = .default) throws(FormatError) -> AdjustmentRecipe? {
        let data = adjustmentData.data
        let context = "\(adjustmentData.formatIdentifier) adjustment data"
        switch adjustmentData.formatIdentifier {
        case AdjustmentData.photosFormatIdentifier:
            let json = try Inflater(limits: limits).inflate(data, context: context)
            return try AdjustmentRecipe.read(json: json, limits: limits, context: context)
        case LivePairAdjustments.formatIdentifier:
            if data.first == UInt8(ascii: "{"),
                let recipe = try? AdjustmentRecipe.read(json: data, limits: limits, context: context)
            {
                return recipe
            }
            let json = try Inflater(limits: limits).inflate(data, context: context)
            return try AdjustmentRecipe.read(json: json, limits: limits, context: context)
        default:
            return nil
        }
    }
}
