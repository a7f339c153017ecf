import Dispatch
import Foundation
import LivePair
import LivePairFormats
@testable import LivePairMedia
import Synchronization
import Testing
import TestSupport

/// The pieces that keep each uninterruptible unit of a load short: JPEG decodes split at restart
/// markers, scaling fed in bands, both checking a cancellation flag between pieces.
@Suite("Loading: cancellation points", .serialized)
struct LoadingCancellationPointTests {
    static func bytes(_ sample: String) throws -> [UInt8] {
        let source = try FileByteSource(path: SampleMedia.path(sample))
        return try source.read(at: 0, count: Int(source.size))
    }

    @Test("an iPhone JPEG decoded in restart strips equals the whole decode (size exact, pixels within seams)",
        arguments: [JPEGImageDecoder.Scale.full, .quarter, .eighth])
    func jpegStrips(scale: JPEGImageDecoder.Scale) throws {
        let data = try Self.bytes("live/train.jpg")  // one restart interval per MCU row (DRI 252)
        let decoder = JPEGImageDecoder()
        let whole = try decoder.decode(data, scale: scale)
        let strips = try decoder.decode(data, scale: scale, cancellation: CancellationFlag())
        #expect((strips.width, strips.height) == (whole.width, whole.height))
        #expect((whole.width, whole.height) == ((4032 + scale.rawValue - 1) / scale.rawValue, 3024 / scale.rawValue))
        // Only the chroma upsampling of the rows next to each seam can differ.
        let difference = try #require(strips.meanAbsoluteDifference(to: whole))
        #expect(difference < 0.2, "mean absolute difference \(difference)")
        // Rows away from the seams (strips are 256 rows of the stored image) are identical.
        let row = 100 / scale.rawValue
        let start = row * whole.bytesPerRow, count = whole.width * 4
        #expect(whole.storage[start..<start + count] == strips.storage[row * strips.bytesPerRow..<row * strips.bytesPerRow + count])
    }

    @Test("a JPEG without restart markers is decoded whole; a cancelled flag stops a decode before it starts")
    func jpegWithoutRestarts() throws {
        let data = try Self.bytes("plain/pixel_8.jpg")
        let decoder = JPEGImageDecoder()
        #expect(try decoder.decode(data, scale: .quarter, cancellation: CancellationFlag()) == decoder.decode(data, scale: .quarter))
        let flag = CancellationFlag()
        flag.cancel()
        #expect(throws: MediaError.cancelled) { try decoder.decode(try Self.bytes("live/train.jpg"), cancellation: flag) }
    }

    @Test("banded scaling gives the pixels of one libswscale call and stops when cancelled")
    func bandedScaling() throws {
        let image = try JPEGImageDecoder().decode(try Self.bytes("live/train.jpg"), scale: .half)  // 2016x1512
        let once = try image.scaled(toWidth: 512, height: 384, filter: .area)
        let banded = try image.scaled(toWidth: 512, height: 384, filter: .area, cancellation: CancellationFlag())
        #expect((banded.width, banded.height) == (512, 384))
        #expect(try #require(banded.meanAbsoluteDifference(to: once)) < 0.05)
        let flag = CancellationFlag()
        flag.cancel()
        #expect(throws: MediaError.cancelled) {
            try image.scaled(toWidth: 512, height: 384, filter: .area, cancellation: flag)
        }
    }

    @Test("a still request cancelled during the full decode begins no further tile")
    func stillStopsPromptly() async throws {
        let path = SampleMedia.path("live/IMG_3582.HEIC")
        let size = PixelSize(width: 512, height: 512)
        // The work runs on a serial queue of its own: `sync` on it returns when the work ended.
        let queue = DispatchQueue(label: "test.loading.cancellation-points")
        let stills = FlagKeepingStillDecoder()
        let manager = ImageManager(stillDecoder: stills, workQueue: queue)
        // The whole decode, uncancelled: 45 tiles (24 MP), each a piece begun under the flag.
        manager.requestImage(
            for: .still(path: path), targetSize: size,
            options: ImageRequestOptions(deliveryMode: .highQualityFormat, isSynchronous: true)) { _, _ in }
        let whole = try #require(stills.fullDecodeFlag.withLock { $0 }).piecesBegun
        #expect(whole >= 45)

        let recorder = CallRecorder()
        // Progress 0.5 is reported just before the full decode starts.
        let decoding = DispatchSemaphore(value: 0)
        let options = ImageRequestOptions(
            deliveryMode: .highQualityFormat, progressHandler: { if $0 == 0.5 { decoding.signal() } })
        stills.fullDecodeFlag.withLock { $0 = nil }
        let id = manager.requestImage(
            for: .still(path: path), targetSize: size, options: options, resultHandler: recorder.imageHandler())
        decoding.wait()
        // Cancel once a few tiles have begun (the decode is then in its tiles).
        while (stills.fullDecodeFlag.withLock { $0 }?.piecesBegun ?? 0) < 4 { usleep(200) }
        manager.cancelRequest(id)
        queue.sync {}
        let calls = await recorder.waitForTerminal()
        #expect(calls.count == 1 && calls[0].isCancelled, "\(calls.map { ($0.error, $0.image?.width) })")
        // After the cancel no tile begins but those whose check had passed as the flag was set:
        // one per thread decoding tiles (`concurrentPerform` uses one per core). How soon the
        // work stops (under 20 ms) is measured by `livepair-bench load` (docs/benchmarks.md).
        let flag = try #require(stills.fullDecodeFlag.withLock { $0 })
        #expect(flag.isCancelled)
        #expect(flag.piecesBegunAfterCancel <= ProcessInfo.processInfo.activeProcessorCount,
            "\(flag.piecesBegunAfterCancel) tiles begun after the cancel")
        #expect(flag.piecesBegun <= whole)
    }
}

/// `MediaStillDecoder`, keeping the flag of the last full decode.
private final class FlagKeepingStillDecoder: StillDecoding {
    let base = MediaStillDecoder()
    let fullDecodeFlag = Mutex<CancellationFlag?>(nil)

    func decodePreview(path: String, geometry: ImageGeometry, cancellation: CancellationFlag) throws(LoaderError)
        -> PreviewImage
    {
        try base.decodePreview(path: path, geometry: geometry, cancellation: cancellation)
    }

    func decodeEmbeddedPreview(path: String, geometry: ImageGeometry, cancellation: CancellationFlag)
        throws(LoaderError) -> PreviewImage?
    {
        try base.decodeEmbeddedPreview(path: path, geometry: geometry, cancellation: cancellation)
    }

    func decodeFull(path: String, geometry: ImageGeometry, cancellation: CancellationFlag) throws(LoaderError)
        -> PixelBuffer
    {
        fullDecodeFlag.withLock { $0 = cancellation }
        return try base.decodeFull(path: path, geometry: geometry, cancellation: cancellation)
    }
}
