import Foundation
@testable import LivePair
import LivePairFormats
import TestSupport
import Testing

private typealias V = SampleVariants

/// make and convert (both directions) of a damaged movie half: refused with the damage's finding
/// code and nothing written (no output, no output folder), or, when the damage cannot change the
/// result, written faithfully (audio streams and still time as in the input, ffprobe as oracle).
@Suite("make, restamp and convert of damaged inputs: a typed refusal or a faithful output, never lost audio")
struct PackagingDamagedInputTests {
    /// Damaged copies of `live/train.mov` (H.264, PCM audio, still-image time 0.48 s), each with
    /// the finding code it must be refused with.
    static func damagedMovies() throws -> [(name: String, bytes: [UInt8], code: FindingCode)] {
        let movie = try SampleMedia.bytes("live/train.mov")
        let audio = try #require(V.track(handler: "soun", in: movie))
        let stillTrack = try #require(V.stillImageTimeTrack(in: movie))
        func table(_ name: String, of track: V.BoxLocation) throws -> V.BoxLocation {
            try #require(V.box(["mdia", "minf", "stbl", name], in: movie, under: track))
        }
        // The audio's first stsc entry claims 0xFFFFFFFF samples per chunk.
        var audioStsc = movie
        let stsc = try table("stsc", of: audio)
        for index in 0..<4 { audioStsc[stsc.payloadOffset + 12 + index] = 0xFF }
        // The audio's first chunk offset points 1,000 bytes past the end of the file.
        var audioOffset = movie
        let stco = try table("stco", of: audio)
        audioOffset.replaceSubrange(stco.payloadOffset + 8..<stco.payloadOffset + 12, with: Self.u32(movie.count + 1_000))
        // The still-image-time sample lies past the end of the file.
        var stillSample = movie
        let stillStco = try table("stco", of: stillTrack)
        stillSample.replaceSubrange(
            stillStco.payloadOffset + 8..<stillStco.payloadOffset + 12, with: Self.u32(movie.count + 50))
        // The still-image-time track's sample times are gone (stts sample count 0): its time cannot be read.
        var stillTimes = movie
        let stts = try table("stts", of: stillTrack)
        stillTimes.replaceSubrange(stts.payloadOffset + 8..<stts.payloadOffset + 12, with: [0, 0, 0, 0])
        // mdat cut short by 200 KB, moov kept after it (its last chunks now end past the file).
        let mdat = try #require(V.boxes(in: movie).first { $0.type == "mdat" })
        var cutMdat = movie
        cutMdat.removeSubrange(mdat.end - 200_000..<mdat.end)
        cutMdat.replaceSubrange(mdat.offset..<mdat.offset + 4, with: Self.u32(mdat.size - 200_000))
        return [
            ("audio-stsc.mov", audioStsc, .sampleTableOutOfFile),
            ("audio-offset.mov", audioOffset, .sampleTableOutOfFile),
            ("still-sample.mov", stillSample, .sampleTableOutOfFile),
            ("still-times.mov", stillTimes, .missingStillImageTime),
            ("cut-mdat.mov", cutMdat, .sampleTableOutOfFile),
            ("truncated.mov", V.truncated(movie, to: movie.count * 2 / 3), .corruptFile),
        ]
    }

    static func u32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }

    /// The finding codes of a damaged-input refusal, or nil (recorded) for any other outcome.
    static func refusalCodes(_ body: () throws(PackagingError) -> Void) -> [FindingCode]? {
        do throws(PackagingError) {
            try body()
            Issue.record("a damaged input was packaged")
        } catch {
            if case let .damagedInput(findings) = error {
                #expect(error.code == "damaged-input" && error.message.hasSuffix("nothing was written"))
                #expect(findings.allSatisfy { $0.severity == .error })
                return findings.map(\.code)
            }
            Issue.record("expected damagedInput, got \(error.code): \(error.message)")
        }
        return nil
    }

    @Test("make (with and without a still), restamp and convert --to motion-photo refuse each damaged movie; nothing is written")
    func damagedMoviesRefused() throws {
        let workspace = try V.Workspace()
        let photo = SampleMedia.path("live/train.jpg")
        var options = PackagingOptions()
        options.stillEncoding = .jpeg
        for movie in try Self.damagedMovies() {
            let path = try workspace.write(movie.bytes, as: movie.name)
            let out = workspace.url.appendingPathComponent("out-" + movie.name)
            #expect(Self.refusalCodes { () throws(PackagingError) in
                _ = try LivePhotoPackager(options: options).make(
                    photo: photo, video: path, outputDirectory: out.appendingPathComponent("make").path)
            } == [movie.code], "make \(movie.name)")
            #expect(Self.refusalCodes { () throws(PackagingError) in
                _ = try LivePhotoPackager(options: options).make(video: path, outputDirectory: out.appendingPathComponent("video").path)
            } == [movie.code], "make --video \(movie.name)")
            #expect(Self.refusalCodes { () throws(PackagingError) in
                _ = try MotionPhotoConverter(options: options).motionPhoto(
                    photo: photo, video: path, output: out.appendingPathComponent("motion/train.jpg").path)
            } == [movie.code], "convert \(movie.name)")
            #expect(Self.refusalCodes { () throws(PackagingError) in
                _ = try LivePhotoPackager(options: options).restamp(
                    photo: photo, video: path, outputDirectory: out.appendingPathComponent("restamp").path)
            } == [movie.code], "restamp \(movie.name)")
            // Not even the output folders were made; the input is unchanged.
            #expect(!FileManager.default.fileExists(atPath: out.path), "\(movie.name) left \(out.path)")
            #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == movie.bytes)
        }
    }

    @Test("a still whose JPEG scan is cut off is refused by make and convert with truncated-image-data")
    func damagedStillRefused() throws {
        let workspace = try V.Workspace()
        let still = try SampleMedia.bytes("live/train.jpg")
        let photo = try workspace.write(V.truncated(still, to: still.count * 2 / 3), as: "train.jpg")
        let video = SampleMedia.path("live/train.mov")
        let out = workspace.url.appendingPathComponent("out")
        #expect(Self.refusalCodes { () throws(PackagingError) in
            _ = try LivePhotoPackager().make(photo: photo, video: video, outputDirectory: out.path)
        } == [.truncatedImageData])
        #expect(Self.refusalCodes { () throws(PackagingError) in
            _ = try MotionPhotoConverter().motionPhoto(photo: photo, video: video, output: out.appendingPathComponent("m.jpg").path)
        } == [.truncatedImageData])
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test("convert --to live-photo refuses a motion photo whose embedded video's audio table is damaged; validate flags it")
    func damagedEmbeddedVideoRefused() throws {
        let workspace = try V.Workspace()
        var bytes = try SampleMedia.bytes("motion/samsung-one-ui-6.heic")
        let embedded = try #require(MotionPhotoLocatorOracle.embeddedMovieStart(in: bytes))
        let inner = Array(bytes[embedded...])
        let audio = try #require(V.track(handler: "soun", in: inner))
        let stsc = try #require(V.box(["mdia", "minf", "stbl", "stsc"], in: inner, under: audio))
        for index in 0..<4 { bytes[embedded + stsc.payloadOffset + 12 + index] = 0xFF }
        let path = try workspace.write(bytes, as: "damaged.heic")
        let identity = ResourceIdentifier().identify(path: path)
        #expect(identity.damageFindings(path: path, name: "damaged.heic").map(\.code) == [.sampleTableOutOfFile])
        let out = workspace.url.appendingPathComponent("live")
        #expect(Self.refusalCodes { () throws(PackagingError) in
            _ = try MotionPhotoConverter().livePhoto(motionPhoto: path, outputDirectory: out.path)
        } == [.sampleTableOutOfFile])
        #expect(!FileManager.default.fileExists(atPath: out.path))
        // The original converts, its audio kept (ffprobe), so the refusal is the damage's.
        let made = try MotionPhotoConverter().livePhoto(
            motionPhoto: SampleMedia.path("motion/samsung-one-ui-6.heic"), outputDirectory: out.path)
        #expect(try Self.streamTypes(made.videoPath).filter { $0 == "audio" }.count == 1)
    }

    /// ffprobe's codec types of the streams of the file at `path`.
    static func streamTypes(_ path: String) throws -> [String] {
        try ReferenceTool.ffprobeStreams(path).map { $0["codec_type"] as? String ?? "?" }
    }

    @Test("damage that changes nothing packaging keeps (audio bytes zeroed) gives outputs with the audio and the still time")
    func harmlessDamageKeepsAudioAndStillTime() throws {
        let workspace = try V.Workspace()
        var movie = try SampleMedia.bytes("live/train.mov")
        let audio = try #require(V.track(handler: "soun", in: movie))
        let stco = try #require(V.box(["mdia", "minf", "stbl", "stco"], in: movie, under: audio))
        let chunk = Int(movie[stco.payloadOffset + 8..<stco.payloadOffset + 12].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        movie = V.overwriting(movie, at: chunk, count: 4_096, with: 0)
        let path = try workspace.write(movie, as: "zeroed-audio.mov")
        let source = try #require(try PackagingOracle.dataStreamStartTime(path))
        #expect(abs(source - 0.48) < 1e-6)
        #expect(try Self.streamTypes(path).filter { $0 == "audio" }.count == 1)

        let pair = try LivePhotoPackager().make(
            photo: SampleMedia.path("live/train.jpg"), video: path,
            outputDirectory: workspace.url.appendingPathComponent("pair").path)
        #expect(try Self.streamTypes(pair.videoPath).filter { $0 == "audio" }.count == 1)
        #expect(abs(try #require(try PackagingOracle.dataStreamStartTime(pair.videoPath)) - source) < 1e-6)

        let motion = try MotionPhotoConverter().motionPhoto(
            photo: SampleMedia.path("live/train.jpg"), video: path,
            output: workspace.url.appendingPathComponent("motion/train.jpg").path)
        // The frame nearest 0.48 s (the still's frame) is at 0.466667 s.
        #expect(motion.presentationTimestampUs == 466_667)
        let embedded = [UInt8](try Data(contentsOf: URL(fileURLWithPath: motion.path)))
            .dropFirst(Int(motion.videoOffset)).prefix(Int(motion.videoLength))
        let embeddedPath = try workspace.write(Array(embedded), as: "embedded.mp4")
        #expect(try Self.streamTypes(embeddedPath).filter { $0 == "audio" }.count == 1)

        // The still-image-time track whose times are gone is accepted when the caller gives the time.
        let stillTimes = try #require(try Self.damagedMovies().first { $0.name == "still-times.mov" })
        let given = try workspace.write(stillTimes.bytes, as: stillTimes.name)
        let chosen = try LivePhotoPackager().make(
            photo: SampleMedia.path("live/train.jpg"), video: given, outputDirectory: workspace.url.appendingPathComponent("given").path,
            stillImageTime: 0.6)
        // 0.6 s is a frame's time (ffprobe: 0.600000), so it is written as given.
        #expect(abs(chosen.stillImageTime - 0.6) < 1e-6)
        #expect(abs(try #require(try PackagingOracle.dataStreamStartTime(chosen.videoPath)) - 0.6) < 1e-6)
        #expect(try Self.streamTypes(chosen.videoPath).filter { $0 == "audio" }.count == 1)
    }
}

/// Where a Samsung or Google motion photo's embedded MP4 starts: the first `ftyp` box after the
/// still's first kilobyte (an independent search, not LivePair's locator).
enum MotionPhotoLocatorOracle {
    static func embeddedMovieStart(in bytes: [UInt8]) -> Int? {
        let ftyp = Array("ftyp".utf8)
        var index = 1_000
        while index + 8 <= bytes.count {
            if bytes[index + 4] == ftyp[0], bytes[index + 5] == ftyp[1], bytes[index + 6] == ftyp[2], bytes[index + 7] == ftyp[3] {
                return index
            }
            index += 1
        }
        return nil
    }
}
