import LivePairFormats

extension ResourceIdentifier {
    /// JPEG: segments up to the image data, then Exif, XMP and a possible motion-photo video.
    func identifyJPEG(_ source: any ByteSource, into identity: inout ResourceIdentity) {
        let structure: JPEGStructure
        do {
            structure = try JPEGSegmentReader(limits: limits).read(source)
        } catch {
            identity.role = .photo
            identity.issues.append(IdentityIssue(error))
            return
        }
        identity.width = structure.width
        identity.height = structure.height
        if let tiff = structure.exifTIFF {
            do {
                apply(try ExifMetadata.read(tiffBytes: tiff, fileOffset: structure.exifTIFFFileOffset, limits: limits), to: &identity)
            } catch {
                identity.issues.append(IdentityIssue(error))
            }
        }
        if structure.width == nil && structure.reachedStartOfScan == false {
            identity.issues.append(
                IdentityIssue(code: "invalid-structure", message: "JPEG: no frame header (SOF) before the image data"))
        }
        var xmp: MotionPhotoXMP?
        if let packet = structure.xmp {
            xmp = motionPhotoXMP(packet + structure.extendedXMP.flatMap(\.bytes))
        }
        locateMotionPhoto(source, xmp: xmp, topLevelBoxes: nil, into: &identity)
        if structure.reachedStartOfScan {
            checkEndOfImage(source, scanStart: structure.startOfScanFileOffset, into: &identity)
        }
        identity.role = stillRole(identity)
    }

    /// HEIF: `ftyp`, `meta` and the Exif and XMP items; a top-level `mpvd` box holds a motion photo's video.
    func identifyHEIF(_ source: any ByteSource, into identity: inout ResourceIdentity) {
        let file: HEIFFile
        do {
            file = try HEIFFile(source: source, limits: limits)
        } catch {
            identity.role = .photo
            identity.issues.append(IdentityIssue(error))
            return
        }
        identity.issues.append(contentsOf: file.issues.map(IdentityIssue.init))
        if let issue = truncationIssue(file.topLevelBoxes, fileSize: source.size) { identity.issues.append(issue) }
        if let primary = file.primaryItem {
            identity.width = primary.width
            identity.height = primary.height
        } else {
            identity.issues.append(IdentityIssue(code: "invalid-structure", message: "HEIF: no primary image item"))
        }
        do {
            if let exif = try file.exif(from: source) {
                apply(try ExifMetadata.read(tiffBytes: exif.tiff, fileOffset: exif.fileOffset, limits: limits), to: &identity)
            }
        } catch {
            identity.issues.append(IdentityIssue(error))
        }
        if identity.orientation == nil, let primary = file.primaryItem {
            identity.orientation = Self.orientation(rotationDegrees: primary.rotationDegrees, mirror: primary.mirror)
        }
        var xmp: MotionPhotoXMP?
        do {
            if let packet = try file.firstXMP(from: source) {
                xmp = motionPhotoXMP(packet.bytes)
                if xmp?.claimsMotionPhoto == true, packet.itemID != file.primaryXMPItemID {
                    identity.motionPhotoXMPItemNotPrimary = packet.itemID
                }
            }
        } catch {
            identity.issues.append(IdentityIssue(error))
        }
        locateMotionPhoto(source, xmp: xmp, topLevelBoxes: file.topLevelBoxes, into: &identity)
        identity.role = stillRole(identity)
    }

    /// The motion-photo facts of an XMP packet. Every fact identification takes from XMP (the
    /// Camera properties, the Container directory) is in a Google photos namespace, so a packet
    /// that never names one (an iPhone's, most cameras') is not parsed: its facts are all absent.
    func motionPhotoXMP(_ packet: [UInt8]) -> MotionPhotoXMP {
        guard ByteSearch.contains(Self.googlePhotosNamespace, in: packet[...]) else { return MotionPhotoXMP() }
        return MotionPhotoXMP(packet, limits: limits)
    }

    /// The start of the Google photos namespace URIs (`XMPNamespace.googleCamera`, `googleContainer`...).
    private static let googlePhotosNamespace = Array("http://ns.google.com/photos/1.0/".utf8)

    /// The EXIF orientation equivalent to HEIF `irot` (anticlockwise) and `imir`, for files without Exif.
    static func orientation(rotationDegrees: Int, mirror: MirrorAxis?) -> Int {
        switch (rotationDegrees, mirror) {
        case (0, nil): return 1
        case (90, nil): return 8
        case (180, nil): return 3
        case (270, nil): return 6
        case (0, .vertical?), (180, .horizontal?): return 2
        case (0, .horizontal?), (180, .vertical?): return 4
        case (90, .vertical?), (270, .horizontal?): return 7
        case (90, .horizontal?), (270, .vertical?): return 5
        default: return 1
        }
    }
}
