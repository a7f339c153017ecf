import LivePair
import LivePairMedia
import Synchronization
import Testing
import TestSupport

/// `ImageRequestOptions.pixelFormat`: image requests delivered as planar YUV 4:2:0.
@Suite("Loading: image pixel formats")
struct LoadingPixelFormatTests {
    /// The images of one request, in call order.
    func request(
        _ source: ImageSource, size: PixelSize, mode: ContentMode = .aspectFit, format: ImagePixelFormat,
        delivery: DeliveryMode = .opportunistic, resize: ResizeMode = .exact
    ) async throws -> [RequestedImage] {
        let images = Mutex<[RequestedImage]>([])
        let done = Mutex(false)
        ImageManager().requestImageInPixelFormat(
            for: source, targetSize: size, contentMode: mode,
            options: ImageRequestOptions(deliveryMode: delivery, resizeMode: resize, pixelFormat: format)
        ) { image, info in
            if let image { images.withLock { $0.append(image) } }
            #expect(info.error == nil)
            if info.isTerminal { done.withLock { $0 = true } }
        }
        #expect(await eventually(timeout: 60) { done.withLock { $0 } })
        return images.withLock { $0 }
    }

    /// BT.601 limited-range luma of an RGBA pixel.
    func luma(_ image: PixelBuffer, _ x: Int, _ y: Int) -> Double {
        let start = y * image.bytesPerRow + x * 4
        let (r, g, b) = (Double(image.storage[start]), Double(image.storage[start + 1]), Double(image.storage[start + 2]))
        return 16 + (0.299 * r + 0.587 * g + 0.114 * b) * 219 / 255
    }

    func sample(_ plane: PixelBuffer, _ x: Int, _ y: Int) -> Double { Double(plane.storage[y * plane.bytesPerRow + x]) }

    static let sources: [(String, ImageSource)] = [
        ("HEIC still", .still(path: SampleMedia.path("live/IMG_3582.HEIC"))),
        ("JPEG still, Exif orientation 6", .still(path: SampleMedia.path("live/51F2BEF7-431A-4D31-8AC1-3284A57826AE.jpeg"))),
        ("movie frame, rotated track", .movieFrame(path: SampleMedia.path("live/IMG_4580.mov"), time: nil)),
    ]

    @Test("yuv420p results are the RGBA results converted: same size, upright, planes within tolerance",
        arguments: sources.indices)
    func planarMatchesRGBA(index: Int) async throws {
        let (name, source) = Self.sources[index]
        let size = PixelSize(width: 200, height: 160)
        let rgba = try await request(source, size: size, mode: .aspectFill, format: .rgba8)
        let planar = try await request(source, size: size, mode: .aspectFill, format: .yuv420p)
        #expect(rgba.count == planar.count, "\(name)")
        let reference = try #require(rgba.last?.rgba), image = try #require(planar.last?.planar)
        #expect((image.width, image.height) == (200, 160), "\(name)")  // exact aspect fill
        #expect((image.chromaWidth, image.chromaHeight) == (100, 80))
        #expect(image.matrix == .bt601 && !image.isFullRange)
        let converted = try reference.yuv420p()
        for (mine, theirs) in zip(image.planes, converted.planes) {
            #expect(try #require(mine.meanAbsoluteDifference(to: theirs)) < 1, "\(name)")
        }
        // Independently of swscale: luma from the RGBA pixels with BT.601's weights.
        var total = 0.0, count = 0
        for y in stride(from: 3, to: 160, by: 13) {
            for x in stride(from: 5, to: 200, by: 17) {
                total += abs(sample(image.y, x, y) - luma(reference, x, y))
                count += 1
            }
        }
        #expect(total / Double(count) < 2.5, "\(name): mean luma error \(total / Double(count))")
        // The degraded result (stills) is planar too.
        if case .still = source { #expect(planar.count == 2 && planar.first?.planar != nil) }
    }

    @Test("RGBA is the default; fast delivery in YUV gives one planar image")
    func defaultsAndFast() async throws {
        #expect(ImageRequestOptions().pixelFormat == .rgba8)
        let images = try await request(
            .still(path: SampleMedia.path("live/train.jpg")), size: PixelSize(width: 96, height: 96), format: .yuv420p,
            delivery: .fastFormat)
        #expect(images.count == 1)
        let image = try #require(images.first?.planar)
        #expect((image.width, image.height) == (96, 72))
    }
}
