import Foundation
import LivePair
import LivePairFormats
import TestSupport
import Testing

@Suite("Resource identity of every sample")
struct ResourceIdentityTests {
    static let files = SampleMedia.manifest.map(\.file)

    /// The role each manifest kind must produce.
    static let roleOfKind: [String: ResourceRole] = [
        "live-still": .livePhotoStill, "live-movie": .livePhotoVideo, "motion-photo-google": .motionPhoto,
        "motion-photo-samsung": .motionPhoto, "plain-heic": .photo, "plain-mov": .video, "adjustment-data": .adjustmentData,
    ]

    private func identify(_ file: String) -> ResourceIdentity {
        ResourceIdentifier().identify(path: SampleMedia.path(file))
    }

    @Test("identifier and role match the manifest", arguments: files)
    func identifierAndRole(file: String) throws {
        let entry = try #require(SampleMedia.entry(file))
        let identity = identify(file)
        #expect(identity.contentIdentifier?.rawValue == entry.contentIdentifier)
        if let role = Self.roleOfKind[entry.kind] {
            #expect(identity.role == role)
        } else {
            #expect(identity.role == .photo, "\(file) is listed as 'other': a photo that is neither Live nor motion")
        }
        if let identifier = identity.contentIdentifier { #expect(identifier.isWellFormedUUID) }
    }

    @Test("stored dimensions match the manifest", arguments: files)
    func dimensions(file: String) throws {
        let entry = try #require(SampleMedia.entry(file))
        let identity = identify(file)
        guard let expected = entry.dimensions else {
            #expect(identity.width == nil || !identity.isComplete)
            return
        }
        if file.hasPrefix("broken/") && identity.width == nil {
            // A damaged file may lose its size (the fuzzed HEIF has no `ipma`, so no `ispe` belongs
            // to any item; exiftool prints the last `ispe` it meets): then it must say why.
            #expect(!identity.isComplete)
            return
        }
        #expect(identity.width == expected.width && identity.height == expected.height)
    }

    @Test("duration, codecs and still-image time of movies and motion photos match the manifest", arguments: files)
    func movieValues(file: String) throws {
        let entry = try #require(SampleMedia.entry(file))
        let identity = identify(file)
        if let duration = entry.duration {
            let found = try #require(identity.duration)
            #expect(abs(found - duration) < 0.001)
            let video = try #require(identity.videoCodec)
            #expect(entry.codec.contains(video))
            if let audio = identity.audioCodec { #expect(entry.codec.contains(audio)) }
        } else {
            #expect(identity.duration == nil)
        }
        if let still = entry.stillImageTime {
            let found = try #require(identity.stillImageTime)
            let frame = 1 / (identity.frameRate ?? 30)
            #expect(abs(found - still) <= frame)
        } else {
            #expect(identity.stillImageTime == nil)
        }
    }

    @Test("the format is told by content: a PNG named .jpg is a PNG")
    func formatByContent() {
        let identity = identify("broken/normalphoto.jpg")
        #expect(identity.format == .png)
        #expect(identity.width == 100 && identity.height == 400)
        #expect(identity.isComplete)
    }

    @Test("LivePhotoVideoIndex alone does not make a Live Photo still")
    func livePhotoVideoIndexIsNotEnough() throws {
        for file in ["plain/IMG_0102.HEIC", "plain/IMG_2682.heic", "plain/IMG_5747.HEIC"] {
            let source = try FileByteSource(path: SampleMedia.path(file))
            let heif = try HEIFFile(source: source)
            let exif = try #require(try heif.exif(from: source))
            let makerNote = try #require(try ExifMetadata.read(tiffBytes: exif.tiff).appleMakerNote)
            #expect(makerNote.livePhotoVideoIndex != nil, "\(file) carries LivePhotoVideoIndex")
            #expect(identify(file).role == .photo)
        }
    }

    @Test("motion photos: the embedded video range starts with ftyp and ffprobe reads it")
    func motionPhotoVideoRange() throws {
        let expected: [String: (offset: UInt64, length: UInt64, timestamp: Int64?, vendor: String)] = [
            "motion/PXL_20200710_061629144.MP.jpg": (2_728_123, 1_317_283, 0, "google"),
            "motion/motionphoto.heic": (1_455_411, 2_193_459, 2_056_590, "samsung"),
            "motion/photo-sg22-ultra.heic": (507_827, 2_341_602, 2_990_844, "samsung"),
            "motion/samsung-one-ui-6.heic": (452_284, 3_226_469, 3_000_000, "samsung"),
        ]
        for (file, value) in expected {
            let identity = identify(file)
            let motion = try #require(identity.motionPhoto, "\(file)")
            #expect(motion.videoOffset == value.offset, "\(file)")
            #expect(motion.videoLength == value.length, "\(file)")
            #expect(motion.presentationTimestampUs == value.timestamp, "\(file)")
            #expect(motion.vendor == value.vendor, "\(file)")
            let bytes = try SampleMedia.bytes(file)
            let video = Array(bytes[Int(value.offset)..<Int(value.offset + value.length)])
            #expect(Array(video[4..<8]) == Array("ftyp".utf8))
            #expect(value.offset + value.length == UInt64(bytes.count) || file.hasSuffix(".heic"))
            guard ReferenceTool.isInstalled("ffprobe") else { continue }
            let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("livepair-\(UUID()).mp4")
            try Data(video).write(to: temporary)
            defer { try? FileManager.default.removeItem(at: temporary) }
            let text = try ReferenceTool.run(
                "ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", temporary.path])
            let duration = try #require(Double(text.trimmingCharacters(in: .whitespacesAndNewlines)))
            #expect(abs(duration - (identity.duration ?? 0)) < 0.05, "\(file)")
        }
    }

    @Test("a motion photo that claims a video it lacks is reported, not crashed on")
    func claimedButMissingVideo() throws {
        let identity = identify("broken/google_motion_photo_broken.jpg")
        #expect(identity.role == .motionPhoto)
        #expect(identity.motionPhoto?.videoOffset == nil)
        #expect(identity.issues.map(\.code) == ["motion-photo-video-missing"])
        #expect(identity.width == 1512 && identity.height == 2016)
    }

    @Test("a Pixel Ultra HDR JPEG with a gain-map container is not a motion photo")
    func gainMapIsNotMotion() {
        let identity = identify("plain/pixel_8.jpg")
        #expect(identity.role == .photo)
        #expect(identity.motionPhoto == nil)
        #expect(identity.isComplete)
    }

    @Test("capture dates: EXIF with sub-seconds and offset, QuickTime creationdate")
    func captureDates() {
        #expect(identify("live/IMG_3582.HEIC").captureDate?.iso8601 == "2025-05-26T09:27:06.603-05:00")
        #expect(identify("live/IMG_3582.mov").captureDate?.iso8601 == "2025-05-26T09:27:06-05:00")
        #expect(identify("live/train.jpg").captureDate?.iso8601 == "2021-04-10T11:44:00.814+01:00")
        #expect(identify("live/IMG_3582.mov").make == "Apple")
        #expect(identify("live/IMG_3582.HEIC").model == "iPhone 15 Pro")
    }

    @Test("identifiers agree with exiftool's MediaGroupUUID/ContentIdentifier", arguments: files)
    func identifiersMatchExiftool(file: String) throws {
        guard ReferenceTool.isInstalled("exiftool") else { return }
        let text = try ReferenceTool.run(
            "exiftool", ["-s3", "-ContentIdentifier", "-MediaGroupUUID", SampleMedia.path(file)])
        let reference = text.split(separator: "\n").first.map { String($0).trimmingCharacters(in: .whitespaces) }
        #expect(identify(file).contentIdentifier?.rawValue == reference)
    }

    @Test("orientation agrees with exiftool's EXIF Orientation for stills", arguments: files.filter {
        !$0.lowercased().hasSuffix(".mov") && !$0.hasPrefix("broken/")
    })
    func orientationMatchesExiftool(file: String) throws {
        guard ReferenceTool.isInstalled("exiftool") else { return }
        let text = try ReferenceTool.run("exiftool", ["-s3", "-n", "-EXIF:Orientation", SampleMedia.path(file)])
        let reference = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
        let identity = identify(file)
        if let reference {
            #expect(identity.orientation == reference)
        } else {
            #expect(identity.orientation == nil || identity.orientation == 1)
        }
    }
}
