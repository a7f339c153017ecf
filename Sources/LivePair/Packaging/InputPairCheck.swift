import LivePairFormats

/// What the two halves given to `convert --to motion-photo` say about each other, checked before
/// anything is written, as `make` reports them on its output pair: the cross-half warnings
/// (`capture-time-mismatch`, `orientation-mismatch`, `aspect-mismatch`) are returned for the
/// result; halves whose content identifiers differ (`identifier-mismatch`, an error) are not one
/// Live Photo and are refused (`PackagingError.mismatchedHalves`). `make` joins any still and movie
/// under a fresh identifier instead, which is its purpose.
struct InputPairCheck {
    let limits: ParseLimits

    /// The findings that concern the halves together.
    static let crossHalfCodes: Set<FindingCode> = [
        .identifierMismatch, .captureTimeMismatch, .orientationMismatch, .aspectMismatch,
    ]

    /// The cross-half warnings of `photo` and `video`; throws when their identifiers differ.
    func findings(photo: ResourceIdentity, video: ResourceIdentity) throws(PackagingError) -> [Finding] {
        let report = Validator(limits: limits).validatePair(photo: AssetResource(photo), video: AssetResource(video))
        let crossHalf = report.allFindings.filter { Self.crossHalfCodes.contains($0.code) }
        if crossHalf.contains(where: { $0.code == .identifierMismatch }) {
            throw .mismatchedHalves(findings: crossHalf.filter { $0.code == .identifierMismatch })
        }
        return crossHalf.filter { $0.severity < .error }
    }
}
