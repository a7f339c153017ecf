import LivePairFormats

/// Validates what a packaging operation wrote, before it is renamed into place.
struct OutputValidation {
    let options: PackagingOptions

    /// Validates the staged pair as one Live Photo. Findings name the final paths; an error-severity
    /// finding throws `PackagingError.invalidOutput`.
    func validatePair(photo: String, video: String, staged: StagedOutputs) throws(PackagingError) -> [Finding] {
        let identifier = ResourceIdentifier(limits: options.limits)
        let report = Validator(limits: options.limits).validatePair(
            photo: AssetResource(identifier.identify(path: photo)), video: AssetResource(identifier.identify(path: video)))
        return try check(report.allFindings, staged: staged)
    }

    /// Validates a staged motion photo on its own.
    func validateMotionPhoto(_ path: String, staged: StagedOutputs) throws(PackagingError) -> [Finding] {
        let identity = ResourceIdentifier(limits: options.limits).identify(path: path)
        guard identity.role == .motionPhoto, identity.motionPhoto?.videoOffset != nil else {
            throw .invalidOutput(findings: [
                Finding(
                    code: FindingCode(rawValue: "motion-photo-video-missing"), severity: .error,
                    path: staged.destinationText(path),
                    message: "the written file does not read back as a motion photo with a video",
                    hint: "report this as a LivePair bug, with the input files")
            ])
        }
        let report = Validator(limits: options.limits).validate(Pairing.pair([AssetResource(identity)]))
        return try check(report.allFindings, staged: staged)
    }

    private func check(_ findings: [Finding], staged: StagedOutputs) throws(PackagingError) -> [Finding] {
        let named = findings.map {
            Finding(
                code: $0.code, severity: $0.severity, path: staged.destinationText($0.path),
                message: staged.destinationText($0.message), hint: $0.hint)
        }
        if named.contains(where: { $0.severity == .error }) { throw .invalidOutput(findings: named) }
        return named
    }
}
