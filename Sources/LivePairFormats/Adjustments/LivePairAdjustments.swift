/// LivePair's own adjustment format: the recipe of an edit made here (key photo, trim, mute,
/// playback variation, ...) in the same JSON shape as Photos' (`metadata`, `adjustments[]` of
/// `{identifier, settings, enabled, formatVersion}`), under LivePair's format identifier, so the
/// edit can be resumed (read back) and reverted (the original is untouched; dropping the `.AAE`
/// and render restores it). The JSON is stored as it is, or as raw DEFLATE (stored blocks).
public enum LivePairAdjustments {
    /// LivePair's `adjustmentFormatIdentifier`.
    public static let formatIdentifier = "org.livepair.adjustments"
    /// The version of the format written.
    public static let formatVersion = "1.0"
    /// The `adjustmentEditorBundleID` written.
    public static let editorBundleID = "org.livepair"

    /// How the JSON is stored in `adjustmentData`.
    public enum Compression: Sendable, Equatable {
        /// The JSON text as it is (readable in any text editor once base64-decoded).
        case none
        /// Raw DEFLATE, as Photos stores its recipes.
        case deflate
    }

    /// The `.AAE` of `recipe`: its steps tagged with LivePair's format identifier where they have none.
    public static func sidecar(
        _ recipe: AdjustmentRecipe, compression: Compression = .none, timestamp: PropertyListDate? = nil,
        baseVersion: Int64 = 0
    ) -> AdjustmentSidecar {
        var tagged = recipe
        for index in tagged.operations.indices where tagged.operations[index].formatIdentifier == nil {
            tagged.operations[index].formatIdentifier = formatIdentifier
        }
        let json = tagged.json.jsonBytes()
        let data = compression == .deflate ? StoredDeflater.deflate(json) : json
        return AdjustmentSidecar(
            adjustmentData: AdjustmentData(formatIdentifier: formatIdentifier, formatVersion: formatVersion, data: data),
            baseVersion: baseVersion, editorBundleID: editorBundleID, timestamp: timestamp)
    }
}
