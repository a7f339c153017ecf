import Foundation
import LivePair
import LivePairMedia
import Testing
import TestSupport

@Suite("Loading: YUV frames")
struct LoadingYUVTests {
    /// The mean of a `.gray8` plane.
    func mean(_ plane: PixelBuffer) -> Double {
        var total = 0
        for row in 0..<plane.height {
            for column in 0..<plane.width { total += Int(plane.storage[row * plane.bytesPerRow + column]) }
        }
        return Double(total) / Double(plane.pixelCount)
    }

    /// The mean luma of an RGBA image with `matrix`'s weights, in the planar image's range.
    func expectedLuma(_ image: PixelBuffer, matrix: PlanarPixelBuffer.ColorMatrix, fullRange: Bool) -> Double {
        let (kr, kb): (Double, Double) =
            switch matrix {
            case .bt709: (0.2126, 0.0722)
            case .bt2020: (0.2627, 0.0593)
            case .smpte240m: (0.212, 0.087)
            case .fcc: (0.30, 0.11)
            case .bt601: (0.299, 0.114)
            }
        var total = 0.0
        for row in 0..<image.height {
            for column in 0..<image.width {
                let start = row * image.bytesPerRow + column * 4
                let (r, g, b) = (Double(image.storage[start]), Double(image.storage[start + 1]), Double(image.storage[start + 2]))
                total += kr * r + (1 - kr - kb) * g + kb * b
            }
        }
        let luma = total / Double(image.pixelCount)
        return fullRange ? luma : 16 + luma * 219 / 255
    }

    func loadLivePhoto(_ pair: (photo: String, video: String), size: PixelSize) throws -> LivePhoto {
        let box = LockedBox()
        LivePhotoManager().requestLivePhoto(
            resourceFileURLs: samplePaths(pair), targetSize: size,
            options: ImageRequestOptions(deliveryMode: .highQualityFormat, isSynchronous: true)
        ) { event, _ in
            if case let .final(livePhoto)? = event { box.set(livePhoto) }
        }
        return try #require(box.value)
    }

    @Test("real pairs: yuv420p frames match the RGBA frames in count, times, size and luma",
        arguments: [loadingSamplePairs[0], loadingSamplePairs[2]])
    func realPair(pair: (photo: String, video: String)) async throws {
        let livePhoto = try loadLivePhoto(pair, size: PixelSize(width: 160, height: 160))
        var rgba: [MovieFrame] = []
        for try await frame in livePhoto.frames { rgba.append(frame) }
        var index = 0
        for try await frame in livePhoto.frames.yuv420p() {
            let image = frame.image
            #expect((image.width, image.height) == (livePhoto.frameSize.width, livePhoto.frameSize.height))
            #expect((image.chromaWidth, image.chromaHeight) == ((image.width + 1) / 2, (image.height + 1) / 2))
            guard index < rgba.count else { break }
            #expect(frame.presentationTime == rgba[index].presentationTime)
            if index % 10 == 0 {
                let expected = expectedLuma(rgba[index].image, matrix: image.matrix, fullRange: image.isFullRange)
                #expect(abs(mean(image.y) - expected) < 4, "frame \(index): Y \(mean(image.y)) vs \(expected)")
            }
            index += 1
        }
        #expect(index == rgba.count)
        #expect(index == livePhoto.movie.frameTimes.count)
    }

    @Test("a decoder without a planar path gets the RGBA frames converted")
    func defaultConversion() async throws {
        let decoder = FakeMovieDecoder(frameCount: 6)
        let frames = LivePhotoFrames(
            path: "fake.mov", movie: decoder.metadata, size: PixelSize(width: 31, height: 20), decoder: decoder)
        var count = 0
        for try await frame in frames.yuv420p() {
            #expect((frame.image.width, frame.image.height, frame.image.chromaWidth) == (31, 20, 16))
            #expect(abs(mean(frame.image.y) - (16 + 128.0 * 219 / 255)) < 1.5)
            count += 1
        }
        #expect(count == 6)
    }
}

/// A thread-safe slot for a result handed to a `@Sendable` handler.
private final class LockedBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: LivePhoto?
    var value: LivePhoto? { lock.withLock { stored } }
    func set(_ value: LivePhoto) { lock.withLock { stored = value } }
}
