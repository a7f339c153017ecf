import Foundation
import LivePair
import LivePairFormats
import LivePairMedia
import TestSupport
import Testing

@Suite("HEIC Exif rewriting, seen by identification and the decoder")
struct HEICRestampIntegrationTests {
    @Test(
        "a new identifier written into the Exif item is identified, and the image decodes to the same pixels",
        arguments: ["live/IMG_3582.HEIC", "plain/IMG_2682.heic", "live/exif-at-eof.heic", "motion/samsung-one-ui-6.heic"])
    func restamped(file: String) throws {
        let workspace = try SampleVariants.Workspace()
        let output = workspace.url.appendingPathComponent("restamped.heic").path
        let identifier = "0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D"
        let input = try FileByteSource(path: SampleMedia.path(file))
        _ = try HEICExifWriter(source: input).write(to: output, contentIdentifier: identifier)

        let before = ResourceIdentifier().identify(path: SampleMedia.path(file))
        let after = ResourceIdentifier().identify(path: output)
        #expect(after.contentIdentifier?.rawValue == identifier)
        #expect(after.role == (before.role == .motionPhoto ? .motionPhoto : .livePhotoStill))
        #expect(after.width == before.width && after.height == before.height)
        #expect(after.orientation == before.orientation)
        #expect(after.captureDate == before.captureDate)
        #expect(after.issues.isEmpty)
        if let motion = before.motionPhoto {
            #expect(after.motionPhoto?.videoLength == motion.videoLength)
        }

        // The thumbnail (or, without one, the primary image) decodes to identical pixels.
        let source = try FileByteSource(path: output)
        let original = try HEIFFile(source: input), rewritten = try HEIFFile(source: source)
        let itemID = try #require(original.thumbnails.first?.id ?? original.primaryItem?.id)
        let decoder = HEICImageDecoder()
        let pixelsBefore = try decoder.decode(try original.imageRecipe(for: itemID, from: input))
        let pixelsAfter = try decoder.decode(try rewritten.imageRecipe(for: itemID, from: source))
        #expect(pixelsBefore == pixelsAfter)
    }
}
