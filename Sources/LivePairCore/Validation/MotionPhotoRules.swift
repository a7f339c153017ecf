/// Rules about a motion photo's embedded video: codec, duration and the presentation timestamp.
enum MotionPhotoRules {
    /// The findings about the embedded video (missing videos are a file rule).
    static func findings(for identity: ResourceIdentity, options: ValidationOptions) -> [Finding] {
        guard let motion = identity.motionPhoto, motion.videoOffset != nil else { return [] }
        var findings = VideoRules.findings(for: identity, what: "embedded video", options: options)
        if let microseconds = motion.presentationTimestampUs, let duration = identity.duration, duration > 0 {
            let time = Double(microseconds) / 1_000_000
            // One frame of slack: Samsung writes the last frame's time, rounded up past the end.
            let slack = 1 / (identity.frameRate.flatMap { $0 > 0 ? $0 : nil } ?? 30)
            if time < 0 || time > duration + slack {
                findings.append(
                    Finding(
                        .motionPhotoTimestampOutOfRange, path: identity.path,
                        message: "the motion photo's presentation timestamp \(MessageFormatting.seconds(time, decimals: 3)) "
                            + "is outside its video (0 to \(MessageFormatting.seconds(duration, decimals: 3)))"))
            }
        }
        return findings
    }
}
