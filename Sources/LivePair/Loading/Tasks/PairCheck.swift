/// The loader's first stage: identifies the two files, orders them as still and movie, and
/// validates them as one explicit pair (`Validator.validatePair`).
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
        validator.validatePair(photo: AssetResource(halves.photo), video: AssetResource(halves.video))
            .allFindings.filter { $0.severity == .error }
    }
}
