import LivePairFormats

extension ResourceIdentifier {
    /// Looks for a motion photo's embedded video and, when found, reads its `moov` for duration and codecs.
    func locateMotionPhoto(
        _ source: any ByteSource, xmp: MotionPhotoXMP?, topLevelBoxes: [TopLevelBox]?,
        into identity: inout ResourceIdentity
    ) {
        let lookup: MotionPhotoLookup
        do {
            lookup = try MotionPhotoLocator(limits: limits).locate(in: source, xmp: xmp, topLevelBoxes: topLevelBoxes)
        } catch {
            identity.issues.append(IdentityIssue(error))
            return
        }
        switch lookup {
        case .notMotionPhoto:
            return
        case let .claimedButMissing(reasons):
            identity.motionPhoto = MotionPhotoInfo(
                vendor: "google", videoOffset: nil, videoLength: nil,
                presentationTimestampUs: xmp?.presentationTimestampUs, locatedBy: nil)
            identity.issues.append(
                IdentityIssue(
                    code: "motion-photo-video-missing",
                    message: "the metadata says this is a motion photo, but no video is embedded: "
                        + reasons.joined(separator: "; ")))
        case let .video(video):
            identity.motionPhoto = MotionPhotoInfo(
                vendor: video.vendor.rawValue, videoOffset: video.fileOffset, videoLength: video.length,
                presentationTimestampUs: video.presentationTimestampUs, locatedBy: video.method.rawValue)
            let embedded = SubrangeByteSource(base: source, offset: video.fileOffset, length: video.length)
            do {
                let movie = try QuickTimeMovieParser(limits: limits).parse(embedded)
                var movieIdentity = ResourceIdentity(path: identity.path)
                describe(movie, source: embedded, into: &movieIdentity)
                // The embedded video's sample tables must stay inside it, as a movie file's must.
                checkMovieIntegrity(movie, fileSize: embedded.size, into: &movieIdentity)
                identity.issues += movieIdentity.issues.map {
                    IdentityIssue(code: $0.code, message: "embedded motion-photo video: \($0.message)")
                }
                identity.duration = movieIdentity.duration
                identity.videoCodec = movieIdentity.videoCodec
                identity.audioCodec = movieIdentity.audioCodec
                identity.frameRate = movieIdentity.frameRate
            } catch {
                identity.issues.append(
                    IdentityIssue(code: error.code, message: "embedded motion-photo video: \(error.description)"))
            }
        }
    }
}
