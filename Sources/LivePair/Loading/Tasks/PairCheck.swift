/// The loader's first stage: identifies the files, orders them as still and movie, and
/// validates them: two files as one explicit pair (`Validator.validatePair`), one motion photo
/// (a still with its movie embedded) with the motion-photo rules.
struct PairCheck: Sendable {
    /// The halves, once ordered.
    struct Halves: Sendable {
        let photo: ResourceIdentity
        /// The separate movie; nil for a motion photo.
        let video: ResourceIdentity?
        /// A motion photo's embedded movie.
        let embedded: EmbeddedMovie?

        /// The still's path.
        var photoPath: String { photo.path }
        /// The movie's path, or the `EmbeddedMovie` reference of a motion photo's video.
        var videoPath: String { embedded?.reference ?? video?.path ?? photo.path }
    }

    let validator: Validator

    /// The still and the movie among `paths` (or the motion photo alone); throws `.unreadable`
    /// for a file that cannot be read, `.unsupportedFormat` for a file of another format and
    /// `.unsupportedResources` when the files are neither one still and one movie nor one motion photo.
    func halves(_ paths: [String]) throws(LoaderError) -> Halves {
        let identifier = ResourceIdentifier(limits: validator.limits)
        let identities = paths.map { identifier.identify(path: $0) }
        for identity in identities where identity.format == .unknown {
            if let issue = identity.issues.first { throw .unreadable(path: identity.path, reason: issue.message) }
            throw .unsupportedFormat(path: identity.path, format: identity.format.rawValue)
        }
        if identities.count == 1, let photo = identities.first, photo.format.isStill {
            guard let motion = photo.motionPhoto, let offset = motion.videoOffset, let length = motion.videoLength,
                length > 0
            else {
                if let issue = photo.issues.first(where: { $0.code == "motion-photo-video-missing" }) {
                    throw .unreadable(path: photo.path, reason: issue.message)
                }
                throw .unsupportedResources(
                    paths: photo.path, given: "a still alone that is not a motion photo (give its movie too)")
            }
            return Halves(
                photo: photo, video: nil, embedded: EmbeddedMovie(containerPath: photo.path, offset: offset, length: length))
        }
        let stills = identities.filter { $0.format.isStill }, movies = identities.filter { $0.format.isMovie }
        guard identities.count == 2, stills.count == 1, movies.count == 1 else {
            throw .unsupportedResources(
                paths: paths.joined(separator: ", "), given: "\(stills.count) still(s) and \(movies.count) movie(s)")
        }
        return Halves(photo: stills[0], video: movies[0], embedded: nil)
    }

    /// The error findings for the pair or the motion photo (empty when it may be loaded).
    func errors(_ halves: Halves) -> [Finding] {
        let report: ValidationReport
        if let video = halves.video {
            report = validator.validatePair(photo: AssetResource(halves.photo), video: AssetResource(video))
        } else {
            var result = PairingResult()
            result.motionPhotos = [AssetResource(halves.photo)]
            report = validator.validate(result)
        }
        return report.allFindings.filter { $0.severity == .error }
    }
}
