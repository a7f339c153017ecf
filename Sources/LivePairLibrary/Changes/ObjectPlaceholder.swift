/// Stands for an asset or album created in the current batch, as PhotoKit's `PHObjectPlaceholder`:
/// its `localIdentifier` is the identifier the object will have, and can be used later in the same
/// batch (for example to add a new asset to a new album) and after the batch commits.
///
/// When a creation request turns out to duplicate an existing asset, the placeholder's identifier
/// used in the same batch refers to the existing asset; `ChangeResult` reports which.
public struct ObjectPlaceholder: Sendable, Hashable {
    /// The identifier the created object gets.
    public let localIdentifier: String
}
