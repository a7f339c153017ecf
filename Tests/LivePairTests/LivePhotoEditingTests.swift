import Foundation
@testable import LivePair
import LivePairFormats
import LivePairMedia
import TestSupport
import Testing

/// `LivePhotoEditingContext`: Live Photo edits rendered on files (key photo, trim, mute, Loop,
/// Bounce, Long Exposure), checked with the project's readers and decoders and with ffprobe.
@Suite("Live Photo edits rendered on files")
struct LivePhotoEditingTests {
    static let still = SampleMedia.path("live/train.jpg")
    static let movie = SampleMedia.path("live/train.mov")

    /// ffprobe's presentation times of the first video stream's frames.
    static func framePresentationTimes(_ path: String) throws -> [Double] {
        try ReferenceTool.run("ffprobe", [
            "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time", "-of", "csv=p=0", path,
        ]).split(separator: "\n").compactMap { line in
            line.split(separator: ",").first.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        }
    }

    /// The original movie's frames (times from ffprobe) kept by the trim window `range`.
    static func keptTimes(_ range: Range<Double>) throws -> [Double] {
        try framePresentationTimes(movie).filter { $0 >= range.lowerBound - 1e-6 && $0 < range.upperBound - 1e-6 }
    }

    /// Renders `settings` on train.jpg + train.mov into a new folder.
    static func render(_ settings: LivePhotoEditSettings) throws -> (RenderedLivePhotoEdit, String) {
        let output = try TestScratch.folder("edit")
        let edit = LivePhotoEditingContext(photo: still, video: movie, settings: settings)
        return (try edit.render(outputDirectory: output), output)
    }

    @Test("key photo, trim and mute: still-image time on the key frame, trimmed length, no audio, one new identifier")
    func keyPhotoTrimMute() throws {
        let originals = [PackagingOracle.contents(Self.still), PackagingOracle.contents(Self.movie)]
        let (edit, output) = try Self.render(LivePhotoEditSettings(photoTime: 0.8, trim: 0.2...1.0, audioVolume: 0))
        #expect(edit.movieHandling == .remuxed)
        // The video packets kept are a run of the original's, byte for byte, fewer than all of them.
        let kept = try #require(try Self.keptRun(of: edit.videoPath, in: Self.movie))
        let originalCount = try Self.videoSamples(Self.movie).count
        #expect(kept.lowerBound == 0 && kept.count < originalCount, "\(kept) of \(originalCount)")
        #expect(PackagingOracle.listing(output) == ["train.AAE", "train_edited.JPG", "train_edited.MOV"])
        #expect([PackagingOracle.contents(Self.still), PackagingOracle.contents(Self.movie)] == originals)

        // The key frame: the kept frame nearest 0.8 s; the new movie starts at the first kept frame.
        let keptTimes = try Self.keptTimes(0.2..<1.0)
        let key = try #require(keptTimes.min { abs($0 - 0.8) < abs($1 - 0.8) })
        #expect(abs(edit.photoTime - key) < 1e-4)
        let expectedStillTime = key - keptTimes[0]
        let identity = ResourceIdentifier().identify(path: edit.videoPath)
        let readBack = try #require(identity.stillImageTime)
        #expect(abs(readBack - expectedStillTime) < 1e-4 && abs(readBack - edit.stillImageTime) < 1e-6)
        // ffprobe: a frame of the new movie is shown exactly at the still-image time.
        let written = try Self.framePresentationTimes(edit.videoPath)
        #expect(written.count == keptTimes.count)
        #expect(written.contains { abs($0 - readBack) < 1e-4 })
        let trackStart = try #require(try PackagingOracle.dataStreamStartTime(edit.videoPath))
        #expect(abs(trackStart - readBack) < 1e-3)

        // Trimmed to 0.8 s within one frame; no audio stream.
        let streams = try ReferenceTool.ffprobeStreams(edit.videoPath)
        #expect(!streams.contains { $0["codec_type"] as? String == "audio" })
        let interval = (keptTimes.last! - keptTimes[0]) / Double(keptTimes.count - 1)
        let duration = try #require((try PackagingOracle.videoProperty(edit.videoPath, "duration")).flatMap(Double.init))
        #expect(abs(duration - 0.8) <= interval + 1e-3)

        // One new identifier on both halves, not the original's.
        let photoIdentifier = ResourceIdentifier().identify(path: edit.photoPath).contentIdentifier?.rawValue
        #expect(photoIdentifier == edit.contentIdentifier && identity.contentIdentifier?.rawValue == edit.contentIdentifier)
        #expect(edit.contentIdentifier != "E905E6C6-C747-4805-942F-9904A0281F02")
        #expect(try PackagingOracle.exiftoolIdentifier(edit.photoPath) == edit.contentIdentifier)

        // The still is the original movie's frame at the key time, and the new movie's frame at its still time.
        let still = try PackagingOracle.decodedStill(edit.photoPath)
        let original = try VideoFrameDecoder.uprightFrame(path: Self.movie, at: key)
        #expect(try #require(still.meanAbsoluteDifference(to: original)) < 2.5)
        let rendered = try VideoFrameDecoder.uprightFrame(path: edit.videoPath, at: readBack)
        #expect(try #require(still.meanAbsoluteDifference(to: rendered)) < 4)
        // A neighbouring frame differs more: the compare tells frames apart.
        let neighbour = try VideoFrameDecoder.uprightFrame(path: Self.movie, at: keptTimes[0])
        let toNeighbour = try #require(still.meanAbsoluteDifference(to: neighbour))
        let toOriginal = try #require(still.meanAbsoluteDifference(to: original))
        #expect(toNeighbour > toOriginal)
    }

    @Test("a trimmed edit with its sound keeps the audio of the kept range only (the original's PCM, cut by the edit list)")
    func trimKeepsAudioOfRange() throws {
        let (edit, _) = try Self.render(LivePhotoEditSettings(trim: 0.4...1.0))
        #expect(edit.hasAudio && edit.movieHandling == .remuxed)
        let audio = try #require(try ReferenceTool.ffprobeStreams(edit.videoPath).first { $0["codec_type"] as? String == "audio" })
        #expect(audio["codec_name"] as? String == "pcm_s16le")
        let duration = try #require((audio["duration"] as? String).flatMap(Double.init))
        #expect(abs(duration - (edit.renderedRange.upperBound - edit.renderedRange.lowerBound)) < 0.05)
        // The movie's own still time (0.48 s) is kept as the key photo: on the new timeline from the first kept frame.
        let kept = try Self.keptTimes(0.4..<1.0)
        let key = try #require(kept.min { abs($0 - 0.48) < abs($1 - 0.48) })
        #expect(abs(edit.stillImageTime - (key - kept[0])) < 1e-4)
    }

    /// The bytes of every sample of the movie's video track, in decoding order, read through
    /// LivePair's parser.
    static func videoSamples(_ path: String) throws -> [[UInt8]] {
        let source = try FileByteSource(path: path)
        let video = try #require(try QuickTimeMovieParser().parse(source).videoTrack)
        return try (0..<Int(video.samples.sampleCount)).map { index in
            let offset = try #require(video.samples.sampleOffset(at: index))
            let size = try #require(video.samples.sampleSize(at: index))
            return try source.readExactly(at: offset, count: Int(size), context: "sample \(index)")
        }
    }

    /// The samples of the original movie at `original` that the video samples of the movie at
    /// `path` are, byte for byte and in order, when they are a run of them; nil otherwise.
    static func keptRun(of path: String, in original: String) throws -> Range<Int>? {
        let (rendered, all) = (try videoSamples(path), try videoSamples(original))
        guard let firstRendered = rendered.first, let first = all.firstIndex(of: firstRendered),
            first + rendered.count <= all.count, Array(all[first..<first + rendered.count]) == rendered
        else { return nil }
        return first..<first + rendered.count
    }

    @Test("trim and key photo re-mux the original's packets with edit lists, keeping only the samples needed: HEVC byte for byte, a smaller file, the trimmed duration and still time read by LivePair and ffprobe")
    func trimByEditList() throws {
        let movie = SampleMedia.path("live/IMG_3582.mov")
        let output = try TestScratch.folder("edit-remux")
        let edit = try LivePhotoEditingContext(
            photo: SampleMedia.path("live/IMG_3582.HEIC"), video: movie,
            settings: LivePhotoEditSettings(photoTime: 1.0, trim: 0.5...1.5, audioVolume: 1)
        ).render(outputDirectory: output)
        #expect(edit.movieHandling == .remuxed)
        // 600 ticks a second, frames every 20 ticks: 0.5 s and 1.5 s are frames, 30 of them kept.
        #expect(edit.renderedRange == 0.5...1.5 && edit.frameCount == 30)
        #expect(edit.photoTime == 1.0 && edit.stillImageTime == 0.5)
        #expect(edit.hasAudio)
        // Only what the trim needs is kept, the video packets the original's byte for byte: a run of
        // them from a sync sample at or before the 0.5 s frame to the last one presented before 1.5 s.
        let originalSamples = try Self.videoSamples(movie)
        let renderedSamples = try Self.videoSamples(edit.videoPath)
        let originalMovie = try QuickTimeMovieParser().parse(try FileByteSource(path: movie))
        let renderedMovie = try QuickTimeMovieParser().parse(try FileByteSource(path: edit.videoPath))
        let originalVideo = try #require(originalMovie.videoTrack)
        let firstRendered = try #require(renderedSamples.first)
        let first = try #require(originalSamples.firstIndex(of: firstRendered))
        #expect(renderedSamples.count >= 30 && renderedSamples.count < originalSamples.count)
        #expect(Array(originalSamples[first..<min(originalSamples.count, first + renderedSamples.count)]) == renderedSamples)
        #expect(originalVideo.samples.syncSamples.map { $0.contains(UInt32(first + 1)) } ?? true)
        #expect(renderedMovie.videoTrack?.samples.syncSamples.map { $0.first == 1 } ?? true)
        let times = originalVideo.samples.presentationTimes(limit: originalSamples.count)
        let keyIndex = try #require(times.firstIndex(of: 300))
        let endIndex = try #require(times.firstIndex(of: 880))
        #expect(first <= keyIndex && first + renderedSamples.count > endIndex, "0.5 s to 1.4667 s presented")
        let sound = { (movie: QuickTimeMovie) in movie.tracks.first { $0.handlerType == "soun" }?.samples.sampleCount ?? 0 }
        #expect(sound(renderedMovie) > 0 && sound(renderedMovie) < sound(originalMovie))
        let sizes = try [movie, edit.videoPath].map { try #require(FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int) }
        #expect(sizes[1] < sizes[0], "\(sizes)")
        // LivePair's parser: the trimmed duration and the still-image time on the new timeline.
        let identity = ResourceIdentifier().identify(path: edit.videoPath)
        #expect(identity.duration == 1.0 && identity.stillImageTime == 0.5 && identity.videoCodec == "hevc")
        #expect(identity.contentIdentifier?.rawValue == edit.contentIdentifier)
        // ffprobe: the same duration, the still-image-time track at 0.5 s, 30 frames shown from 0.
        let duration = try ReferenceTool.run("ffprobe", [
            "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", edit.videoPath,
        ]).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(Double(duration) == 1.0)
        #expect(try PackagingOracle.dataStreamStartTime(edit.videoPath).map { abs($0 - 0.5) < 1e-6 } == true)
        let shown = try Self.framePresentationTimes(edit.videoPath)
        #expect(shown.count == 30 && shown.first.map { abs($0) < 1e-6 } == true)
        let streams = try ReferenceTool.ffprobeStreams(edit.videoPath)
        let audio = try #require(streams.first { $0["codec_type"] as? String == "audio" })
        #expect(audio["codec_name"] as? String == "pcm_s16le")
        #expect((audio["duration"] as? String).flatMap(Double.init) == 1.0)
        // The still is the render's frame at its still-image time, the original's at 1.0 s.
        let still = try PackagingOracle.decodedStill(edit.photoPath)
        let rendered = try VideoFrameDecoder.uprightFrame(path: edit.videoPath, at: 0.5)
        let original = try VideoFrameDecoder.uprightFrame(path: movie, at: 1.0)
        #expect(try #require(still.meanAbsoluteDifference(to: rendered)) < 2.5)
        #expect(rendered == original)
        // validate --deep decodes the still and the movie's frame at its still-image time: no error.
        let report = ValidationFixture.report([edit.photoPath, edit.videoPath], deep: true)
        #expect(report.allFindings.filter { $0.severity == .error }.isEmpty)
    }

    /// The movie's sound decoded by ffmpeg as 32-bit float samples (all channels interleaved),
    /// from `start` for `duration` seconds of its timeline (nil: to the end).
    static func decodedSound(_ path: String, start: Double = 0, duration: Double? = nil) throws -> [Float] {
        let data = try ReferenceTool.ffmpegTool("ffmpeg", [
            "-i", path, "-ss", String(start)] + (duration.map { ["-t", String($0)] } ?? []) + [
            "-map", "0:a:0", "-f", "f32le", "-acodec", "pcm_f32le", "-",
        ])
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    @Test("a volume of 0.5 encodes only the sound again: the video packets copied byte for byte, the sound's peak and RMS half the original's, recorded in the AAE")
    func volumeScalesSamples() throws {
        let (edit, _) = try Self.render(LivePhotoEditSettings(trim: 0.2...1.0, audioVolume: 0.5))
        #expect(edit.hasAudio && edit.movieHandling == .remuxed)
        // The video packets are a run of the original's, byte for byte.
        let kept = try #require(try Self.keptRun(of: edit.videoPath, in: Self.movie))
        #expect(kept.lowerBound == 0, "\(kept)")
        #expect(try Self.framePresentationTimes(edit.videoPath).count == (try Self.keptTimes(0.2..<1.0)).count)
        #expect(ResourceIdentifier().identify(path: edit.videoPath).stillImageTime != nil)
        let audio = try #require(try ReferenceTool.ffprobeStreams(edit.videoPath).first { $0["codec_type"] as? String == "audio" })
        #expect(audio["codec_name"] as? String == "aac")
        let range = edit.renderedRange
        let original = try Self.decodedSound(Self.movie, start: range.lowerBound, duration: range.upperBound - range.lowerBound)
        let rendered = try Self.decodedSound(edit.videoPath)
        func peak(_ samples: [Float]) -> Float { samples.reduce(0) { max($0, abs($1)) } }
        func rms(_ samples: [Float]) -> Double {
            (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, samples.count))).squareRoot()
        }
        #expect(peak(original) > 0.05)
        let peakRatio = Double(peak(rendered) / peak(original))
        let rmsRatio = rms(rendered) / rms(original)
        #expect(abs(peakRatio - 0.5) < 0.05, "peak ratio \(peakRatio)")
        #expect(abs(rmsRatio - 0.5) < 0.05, "RMS ratio \(rmsRatio)")
        // The AAE records the volume (LivePair's AudioVolume step) and resumes it.
        let resumed = try LivePhotoEditingContext(photo: Self.still, video: Self.movie, resuming: edit.adjustmentsPath)
        #expect(resumed.settings == LivePhotoEditSettings(trim: 0.2...1.0, audioVolume: 0.5))
        #expect(resumed.unrenderedOperations.isEmpty)
    }

    /// `image` with its colours inverted (alpha kept).
    static func inverted(_ image: PixelBuffer) throws -> PixelBuffer {
        var bytes = image.packedBytes
        for index in bytes.indices where index % 4 != 3 { bytes[index] = 255 - bytes[index] }
        return try PixelBuffer(width: image.width, height: image.height, format: .rgba8, storage: bytes)
    }

    /// The frames a frame processor was called with.
    final class FrameLog: @unchecked Sendable {
        private let lock = NSLock()
        private var frames: [(kind: LivePhotoFrame.Kind, time: Double)] = []
        func add(_ frame: LivePhotoFrame) { lock.withLock { frames.append((frame.kind, frame.time)) } }
        var all: [(kind: LivePhotoFrame.Kind, time: Double)] { lock.withLock { frames } }
    }

    @Test("a frame processor (invert) is applied to every kept frame and the key photo, checked on decoded frames")
    func frameProcessorInverts() throws {
        let output = try TestScratch.folder("edit-invert")
        let log = FrameLog()
        var edit = LivePhotoEditingContext(
            photo: Self.still, video: Self.movie, settings: LivePhotoEditSettings(photoTime: 0.5, trim: 0.2...0.7, audioVolume: 0))
        edit.frameProcessor = { frame in
            log.add(frame)
            return try Self.inverted(frame.image)
        }
        let rendered = try edit.render(outputDirectory: output)
        #expect(rendered.movieHandling == .transcoded)
        // Called once per kept frame, in order, then once for the photo at the key frame's time.
        let kept = try Self.keptTimes(0.2..<0.7)
        let calls = log.all
        #expect(calls.filter { $0.kind == .video }.count == kept.count && rendered.frameCount == kept.count)
        #expect(zip(calls.filter { $0.kind == .video }.map(\.time), kept).allSatisfy { abs($0 - $1) < 1e-4 })
        #expect(calls.last?.kind == .photo && calls.last.map { abs($0.time - rendered.photoTime) < 1e-9 } == true)
        #expect(calls.filter { $0.kind == .photo }.count == 1)
        // The render's frames are the original's inverted: near the inverted frame, far from the frame itself.
        for time in [kept[0], kept[kept.count / 2]] {
            let original = try VideoFrameDecoder.uprightFrame(path: Self.movie, at: time)
            let shown = try VideoFrameDecoder.uprightFrame(path: rendered.videoPath, at: time - kept[0])
            let toInverted = try #require(shown.meanAbsoluteDifference(to: try Self.inverted(original)))
            let toOriginal = try #require(shown.meanAbsoluteDifference(to: original))
            #expect(toInverted < 4 && toOriginal > 40, "at \(time) s: \(toInverted) to the inverted frame, \(toOriginal) to the frame")
        }
        let still = try PackagingOracle.decodedStill(rendered.photoPath)
        let key = try VideoFrameDecoder.uprightFrame(path: Self.movie, at: rendered.photoTime)
        #expect(try #require(still.meanAbsoluteDifference(to: try Self.inverted(key))) < 4)
    }

    @Test("a named filter (invert) is rendered and recorded in the AAE, which resumes it; mono's pixels are Rec. 709 luma")
    func namedFilterRecordedAndResumed() throws {
        let (rendered, _) = try Self.render(LivePhotoEditSettings(photoTime: 0.5, trim: 0.2...0.5, audioVolume: 0, filter: .invert))
        #expect(rendered.movieHandling == .transcoded && rendered.settings.filter == .invert)
        let kept = try Self.keptTimes(0.2..<0.5)
        let original = try VideoFrameDecoder.uprightFrame(path: Self.movie, at: kept[1])
        let shown = try VideoFrameDecoder.uprightFrame(path: rendered.videoPath, at: kept[1] - kept[0])
        let toInverted = try #require(shown.meanAbsoluteDifference(to: try Self.inverted(original)))
        #expect(toInverted < 4, "\(toInverted)")
        let still = try PackagingOracle.decodedStill(rendered.photoPath)
        let key = try VideoFrameDecoder.uprightFrame(path: Self.movie, at: rendered.photoTime)
        #expect(try #require(still.meanAbsoluteDifference(to: try Self.inverted(key))) < 4)
        // The AAE records the filter as LivePair's LivePairFilter step; resumed, it gives it back.
        let sidecar = try AdjustmentSidecar.read([UInt8](try Data(contentsOf: URL(fileURLWithPath: rendered.adjustmentsPath))))
        let recipe = try #require(try sidecar.recipe())
        #expect(recipe.operations.last?.identifier == "LivePairFilter" && recipe.filterName == "invert")
        let resumed = try LivePhotoEditingContext(photo: Self.still, video: Self.movie, resuming: rendered.adjustmentsPath)
        #expect(resumed.settings == rendered.settings && resumed.unrenderedOperations.isEmpty)
        // mono: every colour channel the pixel's Rec. 709 luma, rounded; alpha kept.
        let pixels = try PixelBuffer(width: 2, height: 1, format: .rgba8, storage: [255, 0, 0, 7, 10, 200, 30, 255])
        #expect(try LivePhotoFilter.mono.apply(to: pixels).packedBytes == [54, 54, 54, 7, 147, 147, 147, 255])
        #expect(try LivePhotoFilter.invert.apply(to: pixels).packedBytes == [0, 255, 255, 7, 245, 55, 225, 255])
        #expect(LivePhotoFilter.names == ["invert", "mono"])
    }

    @Test("an AAE naming a filter LivePair does not have: resumed without it (listed as not rendered), validation's edit-unknown-filter, never a crash")
    func unknownFilterInAdjustmentData() throws {
        let folder = try TestScratch.folder("edit-unknown-filter")
        let aae = folder + "/train.AAE"
        let recipe = AdjustmentRecipe(operations: [
            .keyPhoto(at: AdjustmentTime(value: 300, timescale: 600)),
            AdjustmentOperation(identifier: AdjustmentOperation.Identifier.filter, settings: .object([JSONMember("name", .string("sepia"))])),
        ])
        try Data(LivePairAdjustments.sidecar(recipe).xmlBytes).write(to: URL(fileURLWithPath: aae))
        let resumed = try LivePhotoEditingContext(photo: Self.still, video: Self.movie, resuming: aae)
        #expect(resumed.settings == LivePhotoEditSettings(photoTime: 0.5))
        #expect(resumed.unrenderedOperations == ["LivePairFilter(sepia)"])
        let identity = ResourceIdentifier().identify(path: aae)
        #expect(identity.adjustment?.filterName == "sepia")
        let report = ValidationFixture.report([aae])
        let finding = try #require(report.allFindings.first { $0.code == .editUnknownFilter })
        #expect(finding.severity == .warning)
        #expect(finding.message == "train.AAE names the frame filter 'sepia', which LivePair does not have (invert, mono)")
    }

    @Test("a frame processor that fails or changes a frame's size stops the render: nothing is written")
    func frameProcessorFailures() throws {
        struct Refused: Error {}
        for processor: LivePhotoFrameProcessor in [
            { _ in throw Refused() },
            { frame in try frame.image.cropped(x: 0, y: 0, width: 16, height: 16) },
        ] {
            let output = try TestScratch.folder("edit-processor-fails")
            var edit = LivePhotoEditingContext(photo: Self.still, video: Self.movie, settings: LivePhotoEditSettings(trim: 0.2...0.4))
            edit.frameProcessor = processor
            #expect(throws: PackagingError.self) { _ = try edit.render(outputDirectory: output) }
            #expect(PackagingOracle.listing(output) == [])
        }
    }

    @Test("a movie with AAC sound: the packets of the kept range are copied, moved to start with the video")
    func trimCopiesAACPackets() throws {
        let output = try TestScratch.folder("edit-aac")
        let edit = try LivePhotoEditingContext(
            photo: Self.still, video: SampleMedia.path("plain/with-gps.mov"), settings: LivePhotoEditSettings(trim: 1.0...2.0)
        ).render(outputDirectory: output)
        let streams = try ReferenceTool.ffprobeStreams(edit.videoPath)
        let audio = try #require(streams.first { $0["codec_type"] as? String == "audio" })
        #expect(audio["codec_name"] as? String == "aac")
        let video = try #require(streams.first { $0["codec_type"] as? String == "video" })
        let audioDuration = try #require((audio["duration"] as? String).flatMap(Double.init))
        let videoDuration = try #require((video["duration"] as? String).flatMap(Double.init))
        // Whole AAC packets (1024 samples, 23 ms at 44.1 kHz) of the one second kept.
        #expect(abs(audioDuration - videoDuration) < 0.05 && abs(videoDuration - 1.0) < 0.05)
        let audioStart = try #require((audio["start_time"] as? String).flatMap(Double.init))
        #expect(abs(audioStart) < 0.05)
    }

    @Test("Bounce: the kept frames forward then backward, 2n - 1 frames, no audio")
    func bounce() throws {
        let (edit, _) = try Self.render(LivePhotoEditSettings(trim: 0.2...1.0, playbackVariation: .bounce))
        let kept = try Self.keptTimes(0.2..<1.0)
        #expect(try PackagingOracle.videoFrameCount(edit.videoPath) == 2 * kept.count - 1)
        #expect(edit.frameCount == 2 * kept.count - 1 && !edit.hasAudio)
        #expect(!(try ReferenceTool.ffprobeStreams(edit.videoPath)).contains { $0["codec_type"] as? String == "audio" })
        // The turn: the frame after the middle shows the one before it.
        let times = try Self.framePresentationTimes(edit.videoPath)
        let middle = kept.count - 1
        let before = try VideoFrameDecoder.uprightFrame(path: edit.videoPath, at: times[middle - 1])
        let after = try VideoFrameDecoder.uprightFrame(path: edit.videoPath, at: times[middle + 1])
        let turn = try VideoFrameDecoder.uprightFrame(path: edit.videoPath, at: times[middle])
        let across = try #require(before.meanAbsoluteDifference(to: after))
        let toTurn = try #require(before.meanAbsoluteDifference(to: turn))
        #expect(across < toTurn)
    }

    @Test("Loop: the end crossfaded into the start, so the last frame leads into the first")
    func loop() throws {
        let (edit, _) = try Self.render(LivePhotoEditSettings(playbackVariation: .loop))
        let kept = try Self.keptTimes(0..<Double.infinity)
        let fade = min(LivePhotoEditRenderer.crossfadeFrames, kept.count / 3)
        #expect(try PackagingOracle.videoFrameCount(edit.videoPath) == kept.count - fade)
        let times = try Self.framePresentationTimes(edit.videoPath)
        let wrap = try #require(
            try VideoFrameDecoder.uprightFrame(path: edit.videoPath, at: times.last!)
                .meanAbsoluteDifference(to: try VideoFrameDecoder.uprightFrame(path: edit.videoPath, at: times[0])))
        let originalWrap = try #require(
            try VideoFrameDecoder.uprightFrame(path: Self.movie, at: kept.last!)
                .meanAbsoluteDifference(to: try VideoFrameDecoder.uprightFrame(path: Self.movie, at: kept[0])))
        #expect(wrap < originalWrap / 2)
    }

    @Test("Long Exposure: the still is the mean of the kept frames")
    func longExposure() throws {
        let (edit, _) = try Self.render(LivePhotoEditSettings(trim: 0.3...0.9, playbackVariation: .longExposure))
        let reader = try SequentialFrameReader(path: Self.movie)
        var sums: [Int] = [], count = 0, width = 0, height = 0
        while let frame = try reader.next() {
            guard frame.presentationTime >= 0.3 - 1e-6, frame.presentationTime < 0.9 - 1e-6 else { continue }
            let bytes = frame.image.packedBytes
            if sums.isEmpty { sums = [Int](repeating: 0, count: bytes.count) }
            for index in bytes.indices { sums[index] += Int(bytes[index]) }
            (count, width, height) = (count + 1, frame.image.width, frame.image.height)
        }
        #expect(count == (try Self.keptTimes(0.3..<0.9)).count && count > 5)
        let mean = try PixelBuffer(
            width: width, height: height, format: .rgba8, storage: sums.map { UInt8(($0 + count / 2) / count) })
        let still = try PackagingOracle.decodedStill(edit.photoPath)
        let difference = try #require(still.meanAbsoluteDifference(to: mean))
        #expect(difference < 2.5)
        let keyFrame = try VideoFrameDecoder.uprightFrame(path: Self.movie, at: edit.photoTime)
        #expect(try #require(still.meanAbsoluteDifference(to: keyFrame)) > difference)
        #expect(edit.frameCount == count)
    }

    @Test("the adjustment data round-trips: the written AAE resumes the same settings")
    func adjustmentRoundTrip() throws {
        let settings = LivePhotoEditSettings(photoTime: 0.7, trim: 0.1...1.1, audioVolume: 0, playbackVariation: .bounce)
        let (edit, _) = try Self.render(settings)
        let resumed = try LivePhotoEditingContext(photo: Self.still, video: Self.movie, resuming: edit.adjustmentsPath)
        #expect(resumed.settings == settings && resumed.unrenderedOperations.isEmpty)
        let sidecar = try AdjustmentSidecar.read([UInt8](try #require(PackagingOracle.contents(edit.adjustmentsPath))))
        #expect(sidecar.adjustmentData.formatIdentifier == "org.livepair.adjustments")
        #expect(try sidecar.recipe()?.master == AdjustmentRecipe.Master(width: 4032, height: 3024, orientation: 1))
        // Every variation and a time off Apple's 1/600 s ticks, through the writer alone.
        for variation in PlaybackVariation.allCases {
            let values = LivePhotoEditSettings(photoTime: 1.234567, trim: 0.5...1.0, audioVolume: 1, playbackVariation: variation)
            let written = LivePairAdjustments.sidecar(AdjustmentRecipe(operations: values.operations))
            let read = try #require(try AdjustmentSidecar.read(written.xmlBytes).recipe())
            #expect(LivePhotoEditSettings(recipe: read) == values)
        }
    }

    @Test("Photos' AAE as a starting point: IMG_1853's key frame 1740/600 s reads as 2.9 s; other steps are listed")
    func applePhotosAdjustments() throws {
        let keyFrame = try LivePhotoEditingContext(
            photo: SampleMedia.path("live/IMG_1853.HEIC"), video: Self.movie, resuming: SampleMedia.path("live/IMG_1853.AAE"))
        #expect(keyFrame.settings == LivePhotoEditSettings(photoTime: 2.9))
        #expect(keyFrame.unrenderedOperations.isEmpty)
        let depth = try LivePhotoEditingContext(
            photo: SampleMedia.path("live/IMG_3582.HEIC"), video: SampleMedia.path("live/IMG_3582.mov"),
            resuming: SampleMedia.path("live/IMG_3582.AAE"))
        #expect(depth.settings == LivePhotoEditSettings())
        #expect(depth.unrenderedOperations == ["SmartBlackAndWhite", "DepthEffect"])
    }

    @Test("a HEIC original gives IMG_E…HEIC with its Exif, upright, and IMG_….AAE")
    func heicOriginal() throws {
        let output = try TestScratch.folder("edit-heic")
        let edit = try LivePhotoEditingContext(
            photo: SampleMedia.path("live/IMG_3582.HEIC"), video: SampleMedia.path("live/IMG_3582.mov"),
            settings: LivePhotoEditSettings(photoTime: 0.9, trim: 0.8...1.0, audioVolume: 0)
        ).render(outputDirectory: output)
        #expect(PackagingOracle.listing(output) == ["IMG_3582.AAE", "IMG_E3582.HEIC", "IMG_E3582.MOV"])
        let still = ResourceIdentifier().identify(path: edit.photoPath)
        #expect(still.format == .heic && still.orientation == 1)
        #expect((still.width, still.height) == (1440, 1920))
        let tags = try ReferenceTool.run("exiftool", ["-s3", "-Make", "-Model", "-DateTimeOriginal", edit.photoPath])
        #expect(tags.split(separator: "\n") == ["Apple", "iPhone 15 Pro", "2025:05:26 09:27:06"])
    }

    @Test("settings a render cannot honour are refused before anything is written")
    func refusedSettings() throws {
        for settings in [
            LivePhotoEditSettings(audioVolume: 1.5), LivePhotoEditSettings(audioVolume: -0.1),
            LivePhotoEditSettings(audioVolume: .nan), LivePhotoEditSettings(trim: 1.0...1.0),
            LivePhotoEditSettings(trim: 5.0...6.0), LivePhotoEditSettings(photoTime: -1),
        ] {
            let output = try TestScratch.folder("edit-refused")
            #expect(throws: PackagingError.self) {
                _ = try LivePhotoEditingContext(photo: Self.still, video: Self.movie, settings: settings)
                    .render(outputDirectory: output)
            }
            #expect(PackagingOracle.listing(output) == [])
        }
    }
}
