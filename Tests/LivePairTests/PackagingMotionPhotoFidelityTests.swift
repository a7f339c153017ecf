import Foundation
@testable import LivePair
import LivePairFormats
import TestSupport
import Testing

/// What readers of our motion photos (Google's libmphoto, androidx media3) ask, answered right.
@Suite("Packaging fidelity: motion photos as Google's readers see them")
struct PackagingMotionPhotoFidelityTests {
    @Test("HEIC motion photo from an iPhone still with a gain-map XMP: the primary gets its own XMP item, first in iinf")
    func primaryGetsItsOwnXMP() throws {
        let workspace = try SampleVariants.Workspace()
        let input = SampleMedia.path("live/IMG_4580.HEIC")
        let before = try HEIFFile(source: FileByteSource(path: input))
        #expect(before.primaryXMPItemID == nil)
        let gainMapXMP = try #require(before.xmpItemIDs.first)
        let output = workspace.url.appendingPathComponent("IMG_4580.MP.HEIC").path
        _ = try MotionPhotoConverter().motionPhoto(photo: input, video: SampleMedia.path("live/IMG_4580.mov"), output: output)

        let source = try FileByteSource(path: output)
        let file = try HEIFFile(source: source)
        let primary = try #require(file.meta.primaryItemID)
        let xmpItem = try #require(file.primaryXMPItemID)
        #expect(file.meta.items.first { $0.isXMP }?.id == xmpItem, "the primary's XMP is the first XMP item in iinf")
        #expect(file.meta.references(from: xmpItem, type: "cdsc") == [primary])
        let packet = try file.itemData(xmpItem, from: source).bytes
        #expect(MotionPhotoXMP(packet).claimsMotionPhoto)
        // The gain map keeps its own XMP, unchanged.
        #expect(try file.itemData(gainMapXMP, from: source).bytes
            == before.itemData(gainMapXMP, from: FileByteSource(path: input)).bytes)
        let identity = ResourceIdentifier().identify(path: output)
        #expect(identity.role == .motionPhoto && identity.motionPhotoXMPItemNotPrimary == nil)
        #expect(!Validator().validate(paths: [output]).allFindings.contains { $0.code == .xmpOnNonPrimaryItem })
    }

    @Test("the validator flags a HEIC whose motion-photo XMP describes a non-primary item")
    func validatorFlagsNonPrimaryXMP() throws {
        let workspace = try SampleVariants.Workspace()
        let output = workspace.url.appendingPathComponent("IMG_4580.MP.HEIC").path
        _ = try MotionPhotoConverter().motionPhoto(
            photo: SampleMedia.path("live/IMG_4580.HEIC"), video: SampleMedia.path("live/IMG_4580.mov"), output: output)
        let file = try HEIFFile(source: FileByteSource(path: output))
        let xmpItem = try #require(file.primaryXMPItemID)
        let primary = try #require(file.meta.primaryItemID)
        let gainMap = try #require(file.meta.items.first { !$0.isXMP && $0.id != primary && $0.type == "hvc1" })
        // Point the motion-photo XMP's cdsc at another item, as the earlier writer did.
        var bytes = Array(try #require(PackagingOracle.contents(output)))
        let pattern: [UInt8] = Array("cdsc".utf8) + [UInt8(xmpItem >> 8), UInt8(xmpItem & 0xFF), 0, 1, UInt8(primary >> 8), UInt8(primary & 0xFF)]
        let at = try #require(bytes.indices.first { bytes[$0...].starts(with: pattern) })
        bytes[at + 8] = UInt8(gainMap.id >> 8)
        bytes[at + 9] = UInt8(gainMap.id & 0xFF)
        let moved = try workspace.write(bytes, as: "moved.heic")
        let identity = ResourceIdentifier().identify(path: moved)
        #expect(identity.motionPhotoXMPItemNotPrimary == xmpItem)
        let finding = try #require(Validator().validate(paths: [moved]).allFindings.first { $0.code == .xmpOnNonPrimaryItem })
        #expect(finding.severity == .warning)
        #expect(finding.message.contains("(item \(xmpItem))"))
    }

    @Test("JPEG motion photo from a still whose XMP has several rdf:Description (exiftool's layout): one Description holds everything")
    func oneDescription() throws {
        let workspace = try SampleVariants.Workspace()
        let still = try workspace.copy("live/train.jpg", as: "train.jpg")
        _ = try ReferenceTool.run("exiftool", [
            "-q", "-overwrite_original", "-XMP-dc:Title=Train", "-XMP-xmp:Rating=3", "-XMP-photoshop:City=Lyon", still,
        ])
        let before = try #require(try JPEGSegmentReader().read(FileByteSource(path: still)).xmp)
        #expect(String(decoding: before, as: UTF8.self).components(separatedBy: "<rdf:Description").count - 1 >= 3)
        let output = workspace.url.appendingPathComponent("train.MP.jpg").path
        _ = try MotionPhotoConverter().motionPhoto(photo: still, video: SampleMedia.path("live/train.mov"), output: output)
        let packet = String(decoding: try #require(try JPEGSegmentReader().read(FileByteSource(path: output)).xmp), as: UTF8.self)
        #expect(packet.components(separatedBy: "<rdf:Description").count - 1 == 1, "\(packet)")
        #expect(MotionPhotoXMP(Array(packet.utf8)).claimsMotionPhoto)
        let tags = try ReferenceTool.run("exiftool", ["-s3", "-XMP-dc:Title", "-XMP-xmp:Rating", "-XMP-photoshop:City", output])
        #expect(tags.split(separator: "\n") == ["Train", "3", "Lyon"])
        #expect(ResourceIdentifier().identify(path: output).role == .motionPhoto)
    }

}
