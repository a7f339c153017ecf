import Foundation
import LivePair
import LivePairMedia
import Synchronization
import TestSupport

/// The real Live Photo pairs in SampleMedia/live.
let loadingSamplePairs: [(photo: String, video: String)] = [
    ("live/train.jpg", "live/train.mov"),
    ("live/51F2BEF7-431A-4D31-8AC1-3284A57826AE.jpeg", "live/51F2BEF7-431A-4D31-8AC1-3284A57826AE_3.mov"),
    ("live/IMG_3582.HEIC", "live/IMG_3582.mov"),
    ("live/IMG_4580.HEIC", "live/IMG_4580.mov"),
    ("live/IMG_3582_edited.heic", "live/IMG_3582_edited.mov"),
]

/// Paths of a sample pair.
func samplePaths(_ pair: (photo: String, video: String)) -> [String] {
    [SampleMedia.path(pair.photo), SampleMedia.path(pair.video)]
}

/// One handler call as a test sees it.
struct RecordedCall: Sendable {
    let isDegraded: Bool
    let isCancelled: Bool
    let error: LoaderError?
    let requestID: RequestID
    let image: PixelBuffer?
    let livePhoto: LivePhoto?
    let isTerminal: Bool
    /// `ResultInfo.degradedSource`.
    var degradedSource: PreviewSource? = nil
}

/// Records handler calls (thread-safe) and waits for the terminal one.
final class CallRecorder: Sendable {
    private let calls = Mutex<[RecordedCall]>([])

    var all: [RecordedCall] { calls.withLock { $0 } }

    func livePhotoHandler() -> @Sendable (LivePhotoEvent?, ResultInfo) -> Void {
        { event, info in
            var livePhoto: LivePhoto?
            if case let .final(value) = event { livePhoto = value }
            self.append(
                RecordedCall(
                    isDegraded: info.isDegraded, isCancelled: info.isCancelled, error: info.error,
                    requestID: info.requestID, image: event?.image, livePhoto: livePhoto, isTerminal: info.isTerminal,
                    degradedSource: info.degradedSource))
        }
    }

    func imageHandler() -> @Sendable (PixelBuffer?, ResultInfo) -> Void {
        { image, info in
            self.append(
                RecordedCall(
                    isDegraded: info.isDegraded, isCancelled: info.isCancelled, error: info.error,
                    requestID: info.requestID, image: image, livePhoto: nil, isTerminal: info.isTerminal,
                    degradedSource: info.degradedSource))
        }
    }

    private func append(_ call: RecordedCall) { calls.withLock { $0.append(call) } }

    /// Waits until a terminal call arrived, polling every 5 ms at most `timeout * 200` times (a
    /// hang guard bound in polls, not in wall time: see `eventually`; a load of 38 on two cores
    /// made real loads outlast a 30 s deadline), then a little more so that a stray late call
    /// would be seen, and returns every call.
    func waitForTerminal(timeout: Double = 600) async -> [RecordedCall] {
        var polls = Int(timeout * 200)
        while polls > 0, !all.contains(where: \.isTerminal) {
            polls -= 1
            try? await Task.sleep(for: .milliseconds(5))
        }
        try? await Task.sleep(for: .milliseconds(60))
        return all
    }

    /// Waits until at least `count` calls arrived (polls bounded as in `waitForTerminal`).
    func waitForCalls(_ count: Int, timeout: Double = 600) async {
        var polls = Int(timeout * 200)
        while polls > 0, all.count < count {
            polls -= 1
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// A one-shot gate a fake decoder blocks on until the test opens it (or the work is cancelled).
final class Gate: Sendable {
    private let isOpen = Atomic<Bool>(false)
    private let entered = Atomic<Int>(0)

    func open() { isOpen.store(true, ordering: .releasing) }

    /// How many times a decoder reached the gate.
    var arrivals: Int { entered.load(ordering: .acquiring) }

    /// Blocks until opened, whatever any flag says (like a frame inside libavcodec).
    func passIgnoringCancellation() {
        entered.add(1, ordering: .acquiringAndReleasing)
        while !isOpen.load(ordering: .acquiring) { usleepMilliseconds(1) }
    }

    /// Blocks until opened or `cancellation` is set; throws `.cancelled` in the latter case.
    func pass(_ cancellation: CancellationFlag) throws(LoaderError) {
        entered.add(1, ordering: .acquiringAndReleasing)
        while !isOpen.load(ordering: .acquiring) {
            if cancellation.isCancelled { throw .cancelled }
            usleepMilliseconds(1)
        }
        if cancellation.isCancelled { throw .cancelled }
    }

    /// Waits (async) until a decoder reached the gate, polling at most `timeout / 2 ms` times (a
    /// bound in polls, not in wall time: see `eventually`).
    func waitForArrival(timeout: Double = 60) async {
        var polls = Int(timeout * 500)
        while polls > 0, arrivals == 0 {
            polls -= 1
            try? await Task.sleep(for: .milliseconds(2))
        }
    }
}

/// Sleeps the current thread (without spinning: the tests share two cores with real decodes).
func usleepMilliseconds(_ milliseconds: Int) {
    usleep(useconds_t(milliseconds * 1000))
}

/// A solid RGBA image.
func solidImage(width: Int, height: Int, value: UInt8 = 128) -> PixelBuffer {
    // swiftlint:disable:next force_try
    try! PixelBuffer(width: width, height: height, format: .rgba8, storage: [UInt8](repeating: value, count: width * height * 4))
}

/// A still decoder fake: counts calls, returns solid images, optionally blocks at a gate.
final class FakeStillDecoder: StillDecoding {
    let previewCalls = Atomic<Int>(0)
    let fullCalls = Atomic<Int>(0)
    let cancelledCalls = Atomic<Int>(0)
    let previewGate: Gate?
    let fullGate: Gate?
    let size: PixelSize

    init(previewGate: Gate? = nil, fullGate: Gate? = nil, size: PixelSize = PixelSize(width: 400, height: 300)) {
        self.previewGate = previewGate
        self.fullGate = fullGate
        self.size = size
    }

    func decodePreview(path: String, geometry: ImageGeometry, cancellation: CancellationFlag) throws(LoaderError)
        -> PreviewImage
    {
        previewCalls.add(1, ordering: .relaxed)
        do { try previewGate?.pass(cancellation) } catch {
            cancelledCalls.add(1, ordering: .relaxed)
            throw error
        }
        return PreviewImage(image: solidImage(width: size.width / 2, height: size.height / 2, value: 10), isFullQuality: false)
    }

    func decodeFull(path: String, geometry: ImageGeometry, cancellation: CancellationFlag) throws(LoaderError)
        -> PixelBuffer
    {
        fullCalls.add(1, ordering: .relaxed)
        do { try fullGate?.pass(cancellation) } catch {
            cancelledCalls.add(1, ordering: .relaxed)
            throw error
        }
        return solidImage(width: size.width, height: size.height, value: 200)
    }
}

/// A movie decoder fake: counts calls and frames, blocks the poster at a gate when given.
final class FakeMovieDecoder: MovieDecoding {
    let metadataCalls = Atomic<Int>(0)
    let posterCalls = Atomic<Int>(0)
    let framesDecoded = Atomic<Int>(0)
    let cancelledCalls = Atomic<Int>(0)
    /// Frame readers made and not yet released (closed).
    let openReaders = Atomic<Int>(0)
    let posterGate: Gate?
    let frameCount: Int
    /// Where each frame waits, whatever the flag says, before its "work" (like a frame inside
    /// libavcodec); nil for none.
    let frameGate: Gate?

    init(posterGate: Gate? = nil, frameCount: Int = 30, frameGate: Gate? = nil) {
        self.posterGate = posterGate
        self.frameCount = frameCount
        self.frameGate = frameGate
    }

    var metadata: MovieMetadata {
        MovieMetadata(
            duration: Double(frameCount) / 30, frameRate: 30, stillImageTime: 0.5, hasAudio: false,
            contentIdentifier: nil, frameTimes: (0..<frameCount).map { Double($0) / 30 },
            codedSize: PixelSize(width: 320, height: 240), rotationDegrees: 0, codec: "fake")
    }

    func readMetadata(path: String, cancellation: CancellationFlag) throws(LoaderError) -> MovieMetadata {
        metadataCalls.add(1, ordering: .relaxed)
        return metadata
    }

    func decodeFrame(
        path: String, at time: Double, movie: MovieMetadata, size: PixelSize, cancellation: CancellationFlag
    ) throws(LoaderError) -> MovieFrame {
        posterCalls.add(1, ordering: .relaxed)
        do { try posterGate?.pass(cancellation) } catch {
            cancelledCalls.add(1, ordering: .relaxed)
            throw error
        }
        return MovieFrame(image: solidImage(width: size.width, height: size.height), presentationTime: time)
    }

    func makeFrameReader(path: String, movie: MovieMetadata, size: PixelSize, cancellation: CancellationFlag)
        throws(LoaderError) -> any MovieFrameReading
    {
        FakeFrameReader(decoder: self, size: size, cancellation: cancellation)
    }
}

/// Frames of `FakeMovieDecoder`, each taking about 2 ms of "work" (after the decoder's frame gate,
/// if any) that does not look at the flag; counted in `openReaders` while alive.
final class FakeFrameReader: MovieFrameReading {
    let decoder: FakeMovieDecoder
    let size: PixelSize
    let cancellation: CancellationFlag
    var index = 0

    init(decoder: FakeMovieDecoder, size: PixelSize, cancellation: CancellationFlag) {
        self.decoder = decoder
        self.size = size
        self.cancellation = cancellation
        decoder.openReaders.add(1, ordering: .relaxed)
    }

    deinit { decoder.openReaders.subtract(1, ordering: .relaxed) }

    func nextFrame() throws(LoaderError) -> MovieFrame? {
        if cancellation.isCancelled { throw .cancelled }
        guard index < decoder.frameCount else { return nil }
        decoder.frameGate?.passIgnoringCancellation()
        usleepMilliseconds(2)
        decoder.framesDecoded.add(1, ordering: .relaxed)
        defer { index += 1 }
        return MovieFrame(image: solidImage(width: size.width, height: size.height), presentationTime: Double(index) / 30)
    }
}

/// Waits until `condition` holds, polling every 5 ms for about `timeout` seconds of polls; returns
/// whether it holds.
@discardableResult
func eventually(timeout: Double = 60, _ condition: @Sendable () -> Bool) async -> Bool {
    // The bound is a number of polls, not a deadline: when the test process's two cooperative
    // threads are held by other tests for a minute, a deadline would pass while neither this poll
    // nor the work it waits for could run, and the condition would be judged after a single look.
    for _ in 0..<Int(timeout * 200) {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}
