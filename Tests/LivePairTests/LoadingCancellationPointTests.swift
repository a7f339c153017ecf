import Dispatch
import LivePair
import LivePairFormats
import LivePairMedia
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

    @Test("a still request cancelled during the full decode stops long before the decode would have ended")
    func stillStopsPromptly() async throws {
        let path = SampleMedia.path("live/IMG_3582.HEIC")
        let size = PixelSize(width: 512, height: 512)
        // The work runs on a serial queue of its own: `sync` on it returns when the work ended.
        let queue = DispatchQueue(label: "test.loading.cancellation-points")
        let manager = ImageManager(workQueue: queue)
        // The whole decode, uncancelled, for scale (24 MP, 45 tiles).
        let started = ContinuousClock.now
        manager.requestImage(
            for: .still(path: path), targetSize: size,
            options: ImageRequestOptions(deliveryMode: .highQualityFormat, isSynchronous: true)) { _, _ in }
        let whole = ContinuousClock.now - started

        let recorder = CallRecorder()
        // Progress 0.5 is reported just before the full decode starts.
        let decoding = DispatchSemaphore(value: 0)
        let options = ImageRequestOptions(
            deliveryMode: .highQualityFormat, progressHandler: { if $0 == 0.5 { decoding.signal() } })
        let id = manager.requestImage(
            for: .still(path: path), targetSize: size, options: options, resultHandler: recorder.imageHandler())
        decoding.wait()
        usleepMilliseconds(60)
        let cancelled = ContinuousClock.now
        manager.cancelRequest(id)
        queue.sync {}
        let stopped = ContinuousClock.now - cancelled
        let calls = await recorder.waitForTerminal()
        #expect(calls.count == 1 && calls[0].isCancelled, "\(calls.map { ($0.error, $0.image?.width) })")
        // The work stops within a tile or a scaling band: a small part of the whole decode
        // (release build, unloaded: under 20 ms; see docs/benchmarks.md "load").
        #expect(stopped < whole / 4, "work stopped \(stopped) after the cancel; the whole decode takes \(whole)")
    }
}
