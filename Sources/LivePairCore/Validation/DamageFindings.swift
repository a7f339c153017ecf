/// The findings that say a file is damaged, from what identification could not read: the cheap
/// integrity checks identification makes on every file have their own codes (a movie's sample
/// tables outside the file, a movie without a video track, a JPEG scan without its end), anything
/// else is `corrupt-file`. A motion photo whose video is missing is not damage (see
/// `motion-photo-video-missing`). Validation and ingestion report damage the same way.
extension ResourceIdentity {
    /// The damage findings about this file, under `path`, naming it `name` in messages; empty when
    /// everything identification read was intact.
    public func damageFindings(path: String, name: String) -> [Finding] {
        let damage = issues.filter { $0.code != IdentityIssue.motionPhotoVideoMissingCode }
        guard !damage.isEmpty else { return [] }
        let what = format == .unknown ? "file" : "\(FileRules.describe(format)) file"
        var byCode: [FindingCode: [IdentityIssue]] = [:]
        for issue in damage { byCode[issue.findingCode, default: []].append(issue) }
        return byCode.keys.sorted().map { code in
            let messages = (byCode[code] ?? []).map(\.message).joined(separator: "; ")
            return Finding(code, path: path, message: "\(name) is a damaged \(what): \(messages)")
        }
    }
}

extension IdentityIssue {
    /// The issue code of a motion photo whose embedded video is missing.
    public static let motionPhotoVideoMissingCode = "motion-photo-video-missing"
    /// A movie whose sample tables point past the end of the file or disagree with its sample count.
    public static let sampleTableOutOfFileCode = "sample-table-out-of-file"
    /// A movie without a video track.
    public static let missingVideoTrackCode = "missing-video-track"
    /// A JPEG whose image data does not end with the EOI marker.
    public static let truncatedImageDataCode = "truncated-image-data"

    /// The finding code this issue is reported with.
    public var findingCode: FindingCode {
        switch code {
        case Self.sampleTableOutOfFileCode: return .sampleTableOutOfFile
        case Self.missingVideoTrackCode: return .missingVideoTrack
        case Self.truncatedImageDataCode: return .truncatedImageData
        case Self.motionPhotoVideoMissingCode: return .motionPhotoVideoMissing
        default: return .corruptFile
        }
    }
}
