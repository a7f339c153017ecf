/// The loader's first stage: identifies the two files, orders them as still and movie, and
/// validates them as one explicit pair with `Validator`, plus the one check the validator leaves
/// to pairing (that both halves carry the same content identifier).
struct PairCheck: Sendable {
    /// The halves, once ordered.
    struct Halves: Sendable {
        let photo: ResourceIdentity
        let video: ResourceIdentity
    }

    let validator: Validator

    /// The still and the movie among `paths`; throws `.unreadable` for a file that cannot be
    /// read and `.unsupportedFormat` when the files are not one still and one movie.
    func halves(_ paths: [String]) throws(LoaderError) -> Halves {
        let identifier = ResourceIdentifier(limits: validator.limits)
        let identities = paths.map { identifier.identify(path: $0) }
        for identity in identities where identity.format == .unknown {
            if let issue = identity.issues.first { throw .unreadable(path: identity.path, reason: issue.message) }
            throw .unsupportedFormat(path: identity.path, format: identity.format.rawValue)
        }
        let stills = identities.filter { $0.format.isStill }, movies = identities.filter { $0.format.isMovie }
        guard identities.count == 2, stills.count == 1, movies.count == 1 else {
            throw .unsupportedFormat(
                path: paths.joined(separator: ", "), format: "anything but one still and one movie")
        }
        return Halves(photo: stills[0], video: movies[0])
    }

    /// The error findings for the pair (empty when it may be loaded).
    func errors(_ halves: Halves) -> [Finding] {
        let photo = AssetResource(halves.photo), video = AssetResource(halves.video)
        var findings: [Finding] = []
        if let photoIdentifier = photo.contentIdentifier, let videoIdentifier = video.contentIdentifier,
            photoIdentifier != videoIdentifier
        {
            findings.append(
                Finding(
                    .identifierMismatch, path: video.path,
                    message: "\(photo.path) carries the identifier \(photoIdentifier) but \(video.path) carries "
                        + "\(videoIdentifier): they are not one Live Photo"))
        }
        var result = PairingResult()
        result.pairs = [
            LivePhotoPair(
                contentIdentifier: photo.contentIdentifier ?? video.contentIdentifier, photo: photo, video: video,
                isWeak: photo.contentIdentifier == nil || video.contentIdentifier == nil)
        ]
        let report = validator.validate(result)
        findings += report.allFindings.filter { $0.severity == .error }
        return findings
    }
}
