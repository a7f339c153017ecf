import Foundation
@testable import LivePair
import LivePairFormats
import TestSupport
import Testing

/// What a conversion cannot keep is kept where the format allows it, and said where it does not.
@Suite("Packaging: what gives way is said")
struct PackagingDroppedMetadataTests {
    @Test("a Pixel's maker note, which Apple's replaces, is listed as dropped")
    func googleMakerNote() throws {
        let workspace = try SampleVariants.Workspace()
        let pixel = SampleMedia.path("motion/PXL_20200710_061629144.MP.jpg")
        let live = try MotionPhotoConverter().livePhoto(motionPhoto: pixel, outputDirectory: workspace.url.path + "/live")
        #expect(live.dropped == [
            "the Google maker note (23793 bytes), replaced by Apple's, which carries the identifier (Exif holds one maker note)"
        ])
        // make with the same still says the same; a still with Apple's own note drops nothing.
        let made = try LivePhotoPackager().make(
            photo: live.photoPath, video: live.videoPath, outputDirectory: workspace.url.path + "/again")
        #expect(made.dropped.isEmpty)
        let train = try LivePhotoPackager().make(
            photo: SampleMedia.path("live/train.jpg"), video: SampleMedia.path("live/train.mov"),
            outputDirectory: workspace.url.path + "/train")
        #expect(train.dropped.isEmpty)
        guard ReferenceTool.isInstalled("exiftool") else { return }
        #expect(try ReferenceTool.run("exiftool", ["-s3", "-Make", pixel]).trimmingCharacters(in: .whitespacesAndNewlines) == "Google")
        #expect(try PackagingOracle.exiftoolIdentifier(live.photoPath) == live.contentIdentifier)
    }

    @Test(
        "a Samsung still keeps its SEF records but the video's, which is listed as dropped",
        arguments: ["motion/samsung-one-ui-6.heic", "motion/motionphoto.heic"])
    func samsungRecords(file: String) throws {
        let workspace = try SampleVariants.Workspace()
        let live = try MotionPhotoConverter().livePhoto(
            motionPhoto: SampleMedia.path(file), outputDirectory: workspace.url.path + "/live")
        #expect(live.dropped.contains(
            "the Samsung SEF record MotionPhoto_Data (the embedded video's; the video is now the movie)"))
        let source = try FileByteSource(path: live.photoPath)
        let trailer = try #require(try SamsungSEFTrailer.read(source))
        #expect(trailer.entries.map(\.name) == ["Image_UTC_Data", "MCC_Data", "Camera_Capture_Mode_Info"])
        #expect(trailer.motionPhotoData == nil)
        let original = try #require(try SamsungSEFTrailer.read(try FileByteSource(path: SampleMedia.path(file))))
        for entry in trailer.entries {
            let before = try #require(original.entries.first { $0.name == entry.name })
            #expect(try source.read(at: entry.dataFileOffset, count: Int(entry.dataLength))
                == FileByteSource(path: SampleMedia.path(file)).read(at: before.dataFileOffset, count: Int(before.dataLength)))
        }
        let still = ResourceIdentifier().identify(path: live.photoPath)
        #expect(still.motionPhoto == nil && still.role == .livePhotoStill)
        guard ReferenceTool.isInstalled("exiftool") else { return }
        let tags = try ReferenceTool.run("exiftool", ["-s", "-Samsung:all", live.photoPath])
        #expect(tags.contains("TimeStamp") && tags.contains("MCCData"), "\(tags)")
        #expect(!tags.contains("EmbeddedVideo"), "\(tags)")
        // Back to a motion photo: the records after the image go (the video must end the file), said;
        // so is the still-image-time track the Live Photo's movie got (the embedded MP4 has no
        // mebx track), whose time the XMP keeps. The Samsung video's audio is AAC: kept, not listed.
        let motion = try MotionPhotoConverter().motionPhoto(
            photo: live.photoPath, video: live.videoPath, output: workspace.url.path + "/motion.heic")
        #expect(motion.dropped.count == 2)
        #expect(motion.dropped.first?.hasSuffix("bytes after the still's image (an earlier video or Samsung SEF records)") == true)
        #expect(motion.dropped.last == "the movie's timed-metadata track (mebx: com.apple.quicktime.still-image-time), "
            + "which Android's readers skip; the still-image time is kept in the XMP (LivePair:StillImageTime)")
    }
}
