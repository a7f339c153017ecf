/// The decode checks of deep validation (`ValidationOptions.deep`): each returns the findings for
/// data that does not decode. `LivePairCore` decodes nothing itself; `LivePair` supplies the
/// implementation over the media bridge, so that metadata-only users never load a codec library.
public protocol DeepValidation: Sendable {
    /// Findings when the primary image of `photo` does not decode (`undecodable-photo`).
    func photoFindings(_ photo: ResourceIdentity) -> [Finding]
    /// Findings when the movie's frame at its still-image time does not decode (`undecodable-video`).
    func videoFindings(_ movie: ResourceIdentity) -> [Finding]
    /// Findings when a motion photo's embedded video does not decode at its presentation timestamp.
    func embeddedVideoFindings(_ photo: ResourceIdentity) -> [Finding]
}
