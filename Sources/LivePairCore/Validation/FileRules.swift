import LivePairFormats

/// Rules about one file on its own: readable, named for its content, a well-formed identifier in
/// Apple's place, and for motion photos a video where the file says it is.
enum FileRules {
    /// The findings about `resource`.
    static func findings(for resource: AssetResource) -> [Finding] {
        let identity = resource.identity
        var findings: [Finding] = []
        let name = ValidationPlan.name(identity.path)

        findings += identity.damageFindings(path: identity.path, name: name)

        if identity.format != .unknown {
            let fileExtension = Self.fileExtension(of: identity.path)
            if let fileExtension, !identity.format.extensions.contains(fileExtension) {
                findings.append(
                    Finding(
                        .extensionMismatch, path: identity.path,
                        message: "\(name) is named .\(fileExtension) but contains \(article(identity.format)) \(describe(identity.format))",
                        hint: "rename it to .\(preferredExtension(identity.format)); Photos and most backends choose the decoder by extension"))
            } else if fileExtension == nil {
                findings.append(
                    Finding(
                        .extensionMismatch, path: identity.path,
                        message: "\(name) has no extension; it contains \(article(identity.format)) \(describe(identity.format))",
                        hint: "add the extension .\(preferredExtension(identity.format))"))
            }
        }

        if let motion = identity.motionPhoto, motion.videoOffset == nil {
            let detail = identity.issues.first { $0.code == "motion-photo-video-missing" }?.message
                ?? "the metadata says this is a motion photo, but no video is embedded"
            findings.append(Finding(.motionPhotoVideoMissing, path: identity.path, message: "\(name): \(detail)"))
        }

        if let identifier = identity.contentIdentifier, !identifier.isWellFormedUUID {
            findings.append(
                Finding(
                    .malformedContentIdentifier, path: identity.path,
                    message: "the content identifier of \(name) is \"\(identifier.rawValue)\", not a UUID like Apple writes"))
        }

        if identity.contentIdentifier != nil, identity.contentIdentifierLocation == .userDataMeta {
            findings.append(
                Finding(
                    .nonAppleMetadataLocation, path: identity.path,
                    message: "the content identifier of \(name) is only in moov/udta/meta (where ffmpeg writes it), "
                        + "not in moov/meta where Photos looks for it"))
        }
        findings += ConflictingIdentifiersRule.findings(for: identity)
        findings += NonPrimaryXMPRule.findings(for: identity)
        return findings
    }

    /// The lowercased extension of the last path component, or nil without one.
    static func fileExtension(of path: String) -> String? {
        let name = ValidationPlan.name(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let text = name[name.index(after: dot)...]
        return text.isEmpty ? nil : text.lowercased()
    }

    /// The format in words.
    static func describe(_ format: FileFormat) -> String {
        switch format {
        case .jpeg: return "JPEG image"
        case .heic: return "HEIC image"
        case .avif: return "AVIF image"
        case .quickTime: return "QuickTime movie"
        case .mp4: return "MP4 movie"
        case .png: return "PNG image"
        case .webp: return "WebP image"
        case .gif: return "GIF image"
        case .tiff: return "TIFF image"
        case .unknown: return "unknown format"
        }
    }

    private static func article(_ format: FileFormat) -> String {
        [.avif, .mp4].contains(format) ? "an" : "a"
    }

    /// The extension a file of `format` should have.
    static func preferredExtension(_ format: FileFormat) -> String {
        switch format {
        case .jpeg: return "jpg"
        case .heic: return "heic"
        case .avif: return "avif"
        case .quickTime: return "mov"
        case .mp4: return "mp4"
        case .png: return "png"
        case .webp: return "webp"
        case .gif: return "gif"
        case .tiff: return "tif"
        case .unknown: return ""
        }
    }
}
