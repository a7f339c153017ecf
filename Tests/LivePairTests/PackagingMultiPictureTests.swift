import Foundation
@testable import LivePair
import LivePairFormats
import LivePairMedia
import TestSupport
import Testing

/// A JPEG with an MPF index (Ultra HDR: the gain map is its second image) keeps a true index
/// through every rewrite: the primary's length and the gain map's offset as exiftool reads them.
@Suite("Packaging of an Ultra HDR JPEG: the MPF index follows the bytes")
struct PackagingMultiPictureTests {
    static let ultraHDR = "plain/pixel_8.jpg"

    /// exiftool's MPF values: the primary's length, the gain map's start (a file offset: exiftool
    /// adds the MPF header's position) and length.
    static func index(_ path: String) throws -> (primaryLength: Int, gainMapStart: Int, gainMapLength: Int) {
        let values = try ReferenceTool.run(
            "exiftool", ["-s3", "-MPImage1:MPImageLength", "-MPImage2:MPImageStart", "-MPImage2:MPImageLength", path]
        ).split(separator: "\n").compactMap { Int($0) }
        try #require(values.count == 3, "\(values)")
        return (values[0], values[1], values[2])
    }

    /// Every JPEG packaging writes from the Ultra HDR still: make's still (maker note), the motion
    /// photo (XMP and video) and the still converted back (XMP removed, maker note).
    static func outputs(in workspace: SampleVariants.Workspace) throws -> [String] {
        let (photo, video) = (SampleMedia.path(ultraHDR), SampleMedia.path("live/train.mov"))
        let made = try LivePhotoPackager().make(
            photo: photo, video: video, outputDirectory: workspace.url.appendingPathComponent("made").path)
        let motion = try MotionPhotoConverter().motionPhoto(
            photo: photo, video: video, output: workspace.url.appendingPathComponent("pixel_8.MP.jpg").path)
        let back = try MotionPhotoConverter().livePhoto(
            motionPhoto: motion.path, outputDirectory: workspace.url.appendingPathComponent("back").path)
        return [made.photoPath, motion.path, back.photoPath]
    }

    @Test("cut at its MPF length the primary decodes as the original's; the gain map is at its MPF offset")
    func indexFollowsTheBytes() throws {
        guard ReferenceTool.isInstalled("exiftool") else { return }
        let workspace = try SampleVariants.Workspace()
        let original = try #require(PackagingOracle.contents(SampleMedia.path(Self.ultraHDR)))
        let originalIndex = try Self.index(SampleMedia.path(Self.ultraHDR))
        let gainMap = original.subdata(in: originalIndex.gainMapStart..<originalIndex.gainMapStart + originalIndex.gainMapLength)
        #expect(gainMap.prefix(2) == Data([0xFF, 0xD8]))
        let primaryPixels = try PackagingOracle.decodedStill(SampleMedia.path(Self.ultraHDR))
        let gainMapPixels = try JPEGImageDecoder().decode([UInt8](gainMap))

        for path in try Self.outputs(in: workspace) {
            let bytes = try #require(PackagingOracle.contents(path))
            let index = try Self.index(path)
            // The output's primary grew (a new maker note or XMP): its length is the new one.
            #expect(index.primaryLength != originalIndex.primaryLength, "\(path)")
            let primary = [UInt8](bytes.prefix(index.primaryLength))
            #expect(primary.suffix(2) == [0xFF, 0xD9], "\(path): the primary cut at \(index.primaryLength) does not end with EOI")
            #expect(try JPEGImageDecoder().decode(primary) == primaryPixels, "\(path)")
            #expect(index.gainMapLength == originalIndex.gainMapLength)
            try #require(index.gainMapStart + index.gainMapLength <= bytes.count)
            let movedGainMap = bytes.subdata(in: index.gainMapStart..<index.gainMapStart + index.gainMapLength)
            #expect(movedGainMap == gainMap, "\(path): no gain map at its MPF offset \(index.gainMapStart)")
            #expect(try JPEGImageDecoder().decode([UInt8](movedGainMap)) == gainMapPixels)
            // The gain map follows the primary directly, as in the original.
            #expect(index.gainMapStart == index.primaryLength)
        }
    }
}
