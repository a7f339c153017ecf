extension Validator {
    /// Validates a still and a movie that the caller says form one Live Photo (a loader request,
    /// an upload of two named halves), instead of pairing them by identifier first. Besides every
    /// rule for a Live Photo, it reports `identifier-mismatch` when both halves carry identifiers
    /// and they differ; when one is missing the pair is weak and `missing-content-identifier` applies.
    public func validatePair(photo: AssetResource, video: AssetResource) -> ValidationReport {
        var result = PairingResult()
        result.pairs = [
            LivePhotoPair(
                contentIdentifier: photo.contentIdentifier ?? video.contentIdentifier, photo: photo, video: video,
                isWeak: photo.contentIdentifier == nil || video.contentIdentifier == nil)
        ]
        var report = validate(result)
        if let photoIdentifier = photo.contentIdentifier, let videoIdentifier = video.contentIdentifier,
            photoIdentifier != videoIdentifier, let asset = report.assets.first
        {
            let mismatch = Finding(
                .identifierMismatch, path: video.path,
                message: "\(photo.path) carries the identifier \(photoIdentifier) but \(video.path) carries "
                    + "\(videoIdentifier): they are not one Live Photo")
            report.assets[0] = ValidatedAsset(
                kind: asset.kind, contentIdentifier: asset.contentIdentifier, photo: asset.photo, video: asset.video,
                findings: asset.findings + [mismatch])
        }
        return report
    }
}
