import LivePairFormats

/// Reads what a file is, reading as little as possible: the first bytes to tell the format,
/// then only the headers, `moov`, `meta` and Exif item, or JPEG segments before the image data.
///
/// Identification never throws: what cannot be read becomes an `IdentityIssue` on the result,
/// next to whatever could be read.
public struct ResourceIdentifier: Sendable {
    /// The limits applied to every parser.
    public let limits: ParseLimits

    /// An identifier applying `limits`.
    public init(limits: ParseLimits = .default) { self.limits = limits }

    /// Identifies the file at `path`.
    public func identify(path: String) -> ResourceIdentity {
        let source: FileByteSource
        do {
            source = try FileByteSource(path: path)
        } catch {
            var identity = ResourceIdentity(path: path)
            identity.issues.append(IdentityIssue(error))
            return identity
        }
        var identity = identify(source: source, path: path)
        identity.fileID = source.fileID
        return identity
    }

    /// Identifies the bytes of `source`, reporting them under `path`. The first 32 KiB are read at
    /// once: they hold the format's signature and, in most files, every header identification needs.
    public func identify(source original: any ByteSource, path: String) -> ResourceIdentity {
        var identity = ResourceIdentity(path: path)
        identity.fileSize = original.size
        do {
            let source = try HeadCachedByteSource(original)
            let leading = try source.read(at: 0, count: 64)
            identity.format = FileFormat.detect(leadingBytes: leading)
            switch identity.format {
            case .jpeg: identifyJPEG(source, into: &identity)
            case .heic, .avif: identifyHEIF(source, into: &identity)
            case .quickTime, .mp4: identifyMovie(source, into: &identity)
            case .png: identifyPNG(leading, into: &identity)
            case .webp, .gif, .tiff: identity.role = .photo
            case .unknown: identifyUnknown(source, into: &identity)
            }
        } catch {
            identity.issues.append(IdentityIssue(error))
        }
        return identity
    }

    /// Files of no known format are reported as `unknown`; it is an issue only when their
    /// extension claims a photo or movie format.
    private func identifyUnknown(_ source: any ByteSource, into identity: inout ResourceIdentity) {
        identity.role = .unknown
        let fileExtension = identity.path.split(separator: "/").last.flatMap { name in
            name.contains(".") ? name.split(separator: ".").last.map { $0.lowercased() } : nil
        }
        if fileExtension == "aae" { return identifyAdjustmentData(source, into: &identity) }
        let mediaExtensions = FileFormat.allCases.reduce(into: Set<String>()) { $0.formUnion($1.extensions) }
        if let fileExtension, mediaExtensions.contains(fileExtension) {
            identity.issues.append(
                IdentityIssue(
                    code: "unsupported-format",
                    message: "the extension .\(fileExtension) names a media format, but the content is not one LivePair reads"))
        }
    }

    private func identifyPNG(_ leading: [UInt8], into identity: inout ResourceIdentity) {
        identity.role = .photo
        // IHDR is the first chunk: 8-byte signature, u32 length, "IHDR", u32 width, u32 height.
        var reader = ByteReader(leading, context: "PNG IHDR")
        guard (try? reader.skip(12)) != nil, let type = try? reader.fourCC(), type == "IHDR",
            let width = try? reader.u32(), let height = try? reader.u32()
        else {
            identity.issues.append(IdentityIssue(.invalid(context: "PNG", reason: "no IHDR chunk")))
            return
        }
        identity.width = Int(width)
        identity.height = Int(height)
    }

    /// Fills the EXIF-derived values (maker, model, orientation, date, content identifier).
    func apply(_ exif: ExifMetadata, to identity: inout ResourceIdentity) {
        identity.make = exif.make
        identity.model = exif.model
        identity.orientation = exif.orientation
        identity.captureDate = exif.captureDate
        identity.location = exif.gps
        identity.contentIdentifier = exif.appleMakerNote?.contentIdentifier.flatMap(ContentIdentifier.init(rawValue:))
    }

    /// A `truncated` issue when the last top-level box runs past the end of the file (a cut-off
    /// download or copy), even if everything identification reads lies before the cut.
    func truncationIssue(_ boxes: [TopLevelBox], fileSize: UInt64) -> IdentityIssue? {
        guard let box = boxes.last, box.isTruncated else { return nil }
        return IdentityIssue(
            .truncated(context: "\(box.type) box at offset \(box.fileOffset)", needed: box.size, available: fileSize - box.fileOffset))
    }

    /// The role of a still: motion photo, Live Photo still or plain photo.
    func stillRole(_ identity: ResourceIdentity) -> ResourceRole {
        if identity.motionPhoto != nil { return .motionPhoto }
        return identity.contentIdentifier != nil ? .livePhotoStill : .photo
    }
}
