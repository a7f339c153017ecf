import Dispatch
import Foundation
import LivePair
import LivePairMedia
import Synchronization

/// Records the decoder calls of one request: how many are running, the stage of the last one
/// started, and when the last one returned.
final class WorkProbe: Sendable {
    private let state = Mutex<(inFlight: Int, stage: String, lastReturn: UInt64)>((0, "", 0))

    var inFlight: Int { state.withLock { $0.inFlight } }
    var currentStage: String {
        state.withLock { $0.inFlight > 0 ? $0.stage : $0.stage.isEmpty ? "validating" : "after \($0.stage): rendering or checks" }
    }
    var lastReturn: UInt64 { state.withLock { $0.lastReturn } }

    func measure<T>(_ stage: String, _ body: () throws(LoaderError) -> T) throws(LoaderError) -> T {
        state.withLock {
            $0.inFlight += 1
            $0.stage = stage
        }
        defer {
            state.withLock {
                $0.inFlight -= 1
                $0.lastReturn = DispatchTime.now().uptimeNanoseconds
            }
        }
        return try body()
    }
}

/// `MediaStillDecoder` with its calls recorded by a `WorkProbe`.
struct ProbedStillDecoder: StillDecoding {
    let probe: WorkProbe
    let base = MediaStillDecoder()

    func decodePreview(path: String, geometry: ImageGeometry, cancellation: CancellationFlag) throws(LoaderError)
        -> PreviewImage
    {
        try probe.measure("still preview") { () throws(LoaderError) in
            try base.decodePreview(path: path, geometry: geometry, cancellation: cancellation)
        }
    }

    func decodeFull(path: String, geometry: ImageGeometry, cancellation: CancellationFlag) throws(LoaderError)
        -> PixelBuffer
    {
        try probe.measure("full still") { () throws(LoaderError) in
            try base.decodeFull(path: path, geometry: geometry, cancellation: cancellation)
        }
    }
}

/// `MediaMovieDecoder` with its calls recorded by a `WorkProbe`, and the closing of its frame
/// readers by a `ReaderCloseProbe` when given.
struct ProbedMovieDecoder: MovieDecoding {
    let probe: WorkProbe
    var closes: ReaderCloseProbe?
    let base = MediaMovieDecoder()

    func readMetadata(path: String, cancellation: CancellationFlag) throws(LoaderError) -> MovieMetadata {
        try probe.measure("movie metadata") { () throws(LoaderError) in
            try base.readMetadata(path: path, cancellation: cancellation)
        }
    }

    func decodeFrame(
        path: String, at time: Double, movie: MovieMetadata, size: PixelSize, cancellation: CancellationFlag
    ) throws(LoaderError) -> MovieFrame {
        try probe.measure("poster frame") { () throws(LoaderError) in
            try base.decodeFrame(path: path, at: time, movie: movie, size: size, cancellation: cancellation)
        }
    }

    func makeFrameReader(path: String, movie: MovieMetadata, size: PixelSize, cancellation: CancellationFlag)
        throws(LoaderError) -> any MovieFrameReading
    {
        closes?.beginOpening()
        defer { closes?.endActivity(opening: true) }
        let reader = try probe.measure("frame reader") { () throws(LoaderError) in
            try base.makeFrameReader(path: path, movie: movie, size: size, cancellation: cancellation)
        }
        guard let closes else { return reader }
        return ProbedFrameReader(base: reader, closes: closes)
    }
}

/// Follows frame readers being opened and closed: when the last activity ended (an open
/// returning or failing, a reader closed with its decoder freed and its frames in flight
/// finished).
final class ReaderCloseProbe: Sendable {
    private let state = Mutex<(opening: Int, open: Int, lastActivity: UInt64?)>((0, 0, nil))

    func reset() { state.withLock { $0.lastActivity = nil } }
    func beginOpening() { state.withLock { $0.opening += 1 } }
    func readerOpened() { state.withLock { $0.open += 1 } }

    /// An open returned (`opening`) or a reader was closed.
    func endActivity(opening: Bool) {
        state.withLock {
            if opening { $0.opening -= 1 } else { $0.open -= 1 }
            $0.lastActivity = DispatchTime.now().uptimeNanoseconds
        }
    }

    /// Waits up to `timeout` seconds until no open is running and no reader is open; the time
    /// the last activity ended, nil when there was none since `reset()`.
    func waitUntilIdle(timeout: Double = 5) -> UInt64? {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
        while DispatchTime.now().uptimeNanoseconds < deadline, state.withLock({ $0.opening > 0 || $0.open > 0 }) {
            usleep(200)
        }
        return state.withLock { $0.lastActivity }
    }
}

/// A frame reader that reports to a `ReaderCloseProbe` once the reader it wraps is released.
final class ProbedFrameReader: MovieFrameReading {
    private var base: (any MovieFrameReading)?
    private let closes: ReaderCloseProbe

    init(base: any MovieFrameReading, closes: ReaderCloseProbe) {
        self.base = base
        self.closes = closes
        closes.readerOpened()
    }

    deinit {
        base = nil  // closes the FFmpeg reader, waiting for its frame threads
        closes.endActivity(opening: false)
    }

    func nextFrame() throws(LoaderError) -> MovieFrame? { try base?.nextFrame() }
}
