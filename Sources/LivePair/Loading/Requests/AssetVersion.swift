/// Which version of an edited asset a request reads, as PhotoKit's `PHImageRequestOptionsVersion`:
/// the loader's `ImageRequestOptions.version`, and the library's resources by version
/// (`PhotoLibrary.assetResources(for:version:)`).
public enum AssetVersion: String, Sendable, Hashable, CaseIterable {
    /// With edits: the render (`fullSizePhoto`, `fullSizePairedVideo`, `fullSizeVideo`) when the
    /// asset is edited, the original otherwise. The default.
    case current
    /// Without edits: the original the edit was made from (LivePair keeps no other base, so the
    /// same as `original`).
    case unadjusted
    /// The original resources, as they were added.
    case original
}

