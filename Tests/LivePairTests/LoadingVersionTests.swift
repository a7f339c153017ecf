import LivePair
import LivePairMedia
import Synchronization
import TestSupport
import Testing

/// `ImageRequestOptions.version` (docs/editing.md, "Versions"): given an asset's files with the
/// render of its edit, `.current` reads the render, `.unadjusted` and `.original` the original.
@Suite("Loading: request versions")
struct LoadingVersionTests {
    /// IMG_3582 (colour, 5712x4284 turned upright by its orientation), its black-and-white render
    /// named as Photos exports it, and the edit's `.AAE`.
    static let edited3582 = [
        "live/IMG_3582.AAE", "live/IMG_3582_edited.heic", "live/IMG_3582.HEIC", "live/IMG_3582.mov", "live/IMG_3582_edited.mov",
    ].map(SampleMedia.path)

    /// The mean over pixels of the largest difference between two of R, G and B: 0 for grey (the
    /// black-and-white render decodes to about 2, from chroma rounding; the colour original to over 10).
    static func colourfulness(_ image: PixelBuffer) -> Double {
        var total = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let offset = y * image.bytesPerRow + x * 4
                let (r, g, b) = (Int(image.storage[offset]), Int(image.storage[offset + 1]), Int(image.storage[offset + 2]))
                total += max(r, g, b) - min(r, g, b)
            }
        }
        return Double(total) / Double(image.pixelCount)
    }

    /// The mean absolute difference of two images of one size, channel by channel (RGB).
    static func meanDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        var total = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let offset = y * a.bytesPerRow + x * 4
                for channel in 0..<3 { total += abs(Int(a.storage[offset + channel]) - Int(b.storage[offset + channel])) }
            }
        }
        return Double(total) / Double(a.pixelCount * 3)
    }

    static func image(_ source: ImageSource, _ version: AssetVersion, size: PixelSize) throws -> PixelBuffer {
        let result = Mutex<PixelBuffer?>(nil)
        ImageManager.default.requestImage(
            for: source, targetSize: size,
            options: ImageRequestOptions(deliveryMode: .highQualityFormat, isSynchronous: true, version: version)
        ) { image, _ in result.withLock { $0 = image } }
        return try #require(result.withLock { $0 })
    }

    static func livePhoto(_ files: [String], _ version: AssetVersion, size: Int = 256) throws -> LivePhoto {
        let result = Mutex<LivePhoto?>(nil)
        var options = ImageRequestOptions(deliveryMode: .highQualityFormat, isSynchronous: true)
        options.version = version
        LivePhotoManager.default.requestLivePhoto(resourceFileURLs: files, targetSize: PixelSize(width: size, height: size), options: options) {
            event, _ in
            if case let .final(livePhoto)? = event { result.withLock { $0 = livePhoto } }
        }
        return try #require(result.withLock { $0 })
    }

    @Test("IMG_3582 as an asset: .current is the black-and-white render, .original and .unadjusted the colour original, both upright 384x512")
    func stillVersions() throws {
        let size = PixelSize(width: 512, height: 512)
        let current = try Self.image(.asset(resourceFileURLs: Self.edited3582), .current, size: size)
        let original = try Self.image(.asset(resourceFileURLs: Self.edited3582), .original, size: size)
        let unadjusted = try Self.image(.asset(resourceFileURLs: Self.edited3582.map { "file://" + $0 }), .unadjusted, size: size)
        #expect([current.width, current.height] == [384, 512])
        #expect([original.width, original.height] == [384, 512])
        #expect(Self.colourfulness(current) < 3)
        #expect(Self.colourfulness(original) > 10)
        #expect(unadjusted.storage == original.storage)
        // The same file given alone reads as the file, whatever the version.
        let alone = try Self.image(.still(path: SampleMedia.path("live/IMG_3582.HEIC")), .current, size: size)
        #expect(alone.storage == original.storage)
    }

    @Test("IMG_1853 + IMG_E1853 (the key photo moved): full size, both upright 3024x4032, different pixels")
    func keyPhotoRenderAtFullSize() throws {
        let files = ["live/IMG_1853.HEIC", "live/IMG_E1853.heic", "live/IMG_1853.AAE"].map(SampleMedia.path)
        let current = try Self.image(.asset(resourceFileURLs: files), .current, size: .maximum)
        let original = try Self.image(.asset(resourceFileURLs: files), .original, size: .maximum)
        #expect([current.width, current.height] == [3024, 4032])
        #expect([original.width, original.height] == [3024, 4032])
        #expect(Self.meanDifference(current, original) > 2)
    }

    @Test("the Live Photo request reads the render's pair for .current and the original pair for .original")
    func livePhotoVersions() throws {
        let current = try Self.livePhoto(Self.edited3582, .current)
        #expect(current.photoPath.hasSuffix("/IMG_3582_edited.heic") && current.videoPath.hasSuffix("/IMG_3582_edited.mov"))
        #expect(current.contentIdentifier?.rawValue == "87D06EAA-DAEF-4498-ABC5-27FE5C8CE710")
        #expect(Self.colourfulness(current.still) < 3)
        let original = try Self.livePhoto(Self.edited3582, .original)
        #expect(original.photoPath.hasSuffix("/IMG_3582.HEIC") && original.videoPath.hasSuffix("/IMG_3582.mov"))
        #expect(original.contentIdentifier?.rawValue == "602FEBB7-6B59-4799-96E6-9C8484D873C7")
        #expect(Self.colourfulness(original.still) > 10)
        #expect([current.still.width, current.still.height] == [original.still.width, original.still.height])
    }
}
