import Foundation
import LivePair
import LivePairMedia
import TestSupport
import Testing

/// `LivePhoto.writeMotionMovie(to:)`: the synchronous call encodes on its own thread (it used to
/// wait on a semaphore for a detached task, which deadlocked callers that held every thread of
/// Swift's cooperative pool), and the async overload gives the same movie.
@Suite("Loading: the motion movie, sync and async")
struct LoadingMotionMovieTests {
    /// train.jpg + train.mov (a 1440x1080 movie) loaded at 256x256.
    static func train() throws -> LivePhoto {
        try LoadingVersionTests.livePhoto(["live/train.jpg", "live/train.mov"].map(SampleMedia.path), .current, size: 256)
    }

    /// The synchronous `writeMotionMovie(to:)` (async code would pick the async overload).
    static func writeBlocking(_ livePhoto: LivePhoto, to path: String) throws -> MotionMovieSummary {
        try livePhoto.writeMotionMovie(to: path)
    }

    @Test("the async overload writes the movie the sync call writes: same frames, size and audio handling")
    func asyncMatchesSync() async throws {
        let livePhoto = try Self.train()
        let folder = try TestScratch.folder("motion-movie")
        let sync = try Self.writeBlocking(livePhoto, to: folder + "/sync.mp4")
        let async = try await livePhoto.writeMotionMovie(to: folder + "/async.mp4")
        #expect(sync.frameCount == livePhoto.movie.frameTimes.count && sync.frameCount > 0)
        #expect(async.frameCount == sync.frameCount && async.width == sync.width && async.height == sync.height)
        #expect(sync.width == 256 && sync.height == 192)
        #expect(async.audio == sync.audio)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/async.mp4"))
        #expect(String(decoding: bytes[4..<8], as: UTF8.self) == "ftyp")
    }

    @Test("the sync call from more tasks than the cooperative pool has threads, each blocking its thread: all finish")
    func syncCallsFromEveryPoolThread() async throws {
        let livePhoto = try Self.train()
        let folder = try TestScratch.folder("motion-movie-pool")
        let tasks = ProcessInfo.processInfo.activeProcessorCount * 2
        let counts = await withTaskGroup(of: Int?.self) { group in
            for index in 0..<tasks {
                group.addTask { try? Self.writeBlocking(livePhoto, to: folder + "/\(index).mp4").frameCount }
            }
            var counts: [Int?] = []
            for await count in group { counts.append(count) }
            return counts
        }
        #expect(counts == Array(repeating: livePhoto.movie.frameTimes.count, count: tasks))
    }
}
