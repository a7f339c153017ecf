/// Rules about a Live Photo movie's or a motion photo's video: codec and duration.
enum VideoRules {
    /// Codecs Photos plays in a Live Photo (and Android in a motion photo).
    static let supportedCodecs: Set<String> = ["h264", "hevc"]

    /// Codec and duration findings for the video of `identity`, reported on `path`.
    static func findings(for identity: ResourceIdentity, what: String, options: ValidationOptions) -> [Finding] {
        var findings: [Finding] = []
        let name = ValidationPlan.name(identity.path)
        if let codec = identity.videoCodec {
            if !supportedCodecs.contains(codec) {
                findings.append(
                    Finding(
                        .unsupportedVideoCodec, path: identity.path,
                        message: "the \(what) in \(name) is \(codec) video; Live Photos and motion photos use H.264 or HEVC"))
            } else if codec == "hevc" {
                findings.append(
                    Finding(
                        .hevcVideo, path: identity.path,
                        message: "the \(what) in \(name) is HEVC video, which Firefox and Chromium-based browsers cannot play"))
            }
        }
        let range = options.durationRange
        if let duration = identity.duration, duration > 0 {
            if !range.contains(duration) {
                findings.append(
                    Finding(
                        .unusualDuration, path: identity.path,
                        message: "the \(what) in \(name) lasts \(MessageFormatting.seconds(duration)); camera clips last "
                            + "\(MessageFormatting.seconds(range.lowerBound)) to \(MessageFormatting.seconds(range.upperBound))"))
            }
        } else if identity.issues.isEmpty {
            findings.append(
                Finding(.unusualDuration, path: identity.path, message: "the \(what) in \(name) has no duration (no frames)"))
        }
        return findings
    }
}
