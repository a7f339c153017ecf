import Foundation
import LivePairFormats
import TestSupport
import Testing

@Suite("QuickTime movies")
struct QuickTimeMovieTests {
    static let movies = SampleMedia.manifest.filter { $0.kind == "live-movie" || $0.kind == "plain-mov" }.map(\.file)

    private func movie(_ file: String) throws -> (QuickTimeMovie, FileByteSource) {
        let source = try FileByteSource(path: SampleMedia.path(file))
        return (try QuickTimeMovieParser().parse(source), source)
    }

    @Test("identifier, duration and coded size match the manifest", arguments: movies)
    func manifestValues(file: String) throws {
        let entry = try #require(SampleMedia.entry(file))
        let (movie, _) = try movie(file)
        let identifier = movie.metadataValue(QuickTimeMovie.contentIdentifierKey)
        #expect(identifier?.value.stringValue == entry.contentIdentifier)
        if identifier != nil { #expect(identifier?.location == .movieMeta) }
        let duration = try #require(entry.duration)
        #expect(abs(movie.header.durationSeconds - duration) < 0.001)
        let video = try #require(movie.videoTrack?.primaryDescription)
        let dimensions = try #require(entry.dimensions)
        #expect(video.width == dimensions.width && video.height == dimensions.height)
        #expect(entry.codec.contains(video.codecName))
        if let audio = movie.audioTrack?.primaryDescription {
            #expect(entry.codec.contains(audio.codecName))
        }
    }

    @Test("still-image time is within one frame of the manifest", arguments: movies)
    func stillImageTime(file: String) throws {
        let entry = try #require(SampleMedia.entry(file))
        let (movie, source) = try movie(file)
        let still = QuickTimeMovieParser().stillImageTime(of: movie, source: source)
        guard let expected = entry.stillImageTime else {
            #expect(still == nil)
            return
        }
        let found = try #require(still)
        let frameRate = try #require(movie.videoTrack?.sampleRate)
        #expect(abs(found.seconds - expected) <= 1 / frameRate)
        #expect(abs(found.seconds - expected) < 0.001)
        #expect(found.sampleValue == -1)
    }

    @Test("still-image time equals ffprobe's start_time of the metadata stream", arguments: movies)
    func stillImageTimeMatchesFFprobe(file: String) throws {
        guard ReferenceTool.isInstalled("ffprobe") else { return }
        let (movie, source) = try movie(file)
        guard let still = QuickTimeMovieParser().stillImageTime(of: movie, source: source),
            let index = movie.tracks.firstIndex(where: { $0.header.trackID == still.trackID })
        else { return }
        let starts = try ReferenceTool.ffprobeStreamStartTimes(SampleMedia.path(file))
        try #require(starts.count == movie.tracks.count)
        let reference = try #require(starts[index])
        #expect(abs(still.seconds - reference) < 0.0005)
    }

    @Test("the exact still-image times of the camera files")
    func exactStillTimes() throws {
        let expected: [String: Double] = [
            "live/train.mov": 0.48, "live/IMG_3582.mov": 799.0 / 600, "live/IMG_4580.mov": 800.0 / 600,
        ]
        for (file, seconds) in expected {
            let (movie, source) = try movie(file)
            let found = try #require(QuickTimeMovieParser().stillImageTime(of: movie, source: source))
            #expect(abs(found.seconds - seconds) < 1e-9, "\(file)")
        }
    }

    @Test("Live Photo movie metadata: keys, handler tracks, orientation")
    func liveMovieDetails() throws {
        let (movie, _) = try movie("live/IMG_3582.mov")
        #expect(movie.fileType?.majorBrand == "qt  ")
        #expect(movie.metadataValue("com.apple.quicktime.make")?.value.stringValue == "Apple")
        #expect(movie.metadataValue("com.apple.quicktime.model")?.value.stringValue == "iPhone 15 Pro")
        #expect(movie.metadataValue("com.apple.quicktime.creationdate")?.value.stringValue == "2025-05-26T09:27:06-0500")
        #expect(movie.metadataValue("com.apple.quicktime.live-photo.auto")?.value == .unsignedInteger(1))
        let vitality = try #require(movie.metadataValue("com.apple.quicktime.live-photo.vitality-score")?.value.doubleValue)
        #expect(abs(vitality - 0.93985) < 1e-5)
        let stillTrack = try #require(movie.stillImageTimeTrack)
        #expect(stillTrack.references["cdsc"] == [movie.videoTrack!.header.trackID])
        let key = try #require(stillTrack.primaryDescription?.metadataKeys.first { $0.name == QuickTimeMovie.stillImageTimeKey })
        #expect(key.dataType == 65)
        #expect(stillTrack.editList.first?.isEmpty == true)
        #expect(movie.tracks.filter { $0.handlerType == "meta" }.count == 3)
        #expect(movie.videoTrack?.primaryDescription?.format == "hvc1")
    }

    @Test("orientation from the track matrix agrees with ffprobe's rotation", arguments: movies)
    func orientationMatchesFFprobe(file: String) throws {
        guard ReferenceTool.isInstalled("ffprobe") else { return }
        let (movie, _) = try movie(file)
        let orientation = try #require(movie.videoTrack?.header.orientation)
        let text = try ReferenceTool.run(
            "ffprobe",
            ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream_side_data=rotation", "-of", "csv=p=0",
             SampleMedia.path(file)])
        let rotation = Int(text.split(separator: "\n").first.map { String($0).trimmingCharacters(in: .whitespaces) } ?? "") ?? 0
        // ffprobe's display-matrix rotation is anticlockwise: -90 is EXIF 6 (rotate 90 degrees clockwise to show).
        let expected = [0: 1, -90: 6, 270: 6, 180: 3, -180: 3, 90: 8, -270: 8][rotation]
        #expect(orientation == expected, "\(file): rotation \(rotation)")
    }

    @Test("a movie without ftyp still parses")
    func movieWithoutFileType() throws {
        let bytes = try SampleMedia.bytes("live/train.mov")
        let source = MemoryByteSource(bytes, name: "train.mov")
        let boxes = try TopLevelBoxScanner().scan(source)
        let ftyp = try #require(boxes.first { $0.type == "ftyp" })
        // Turn the ftyp box into a `free` box: same layout, no file type.
        var edited = bytes
        edited.replaceSubrange(Int(ftyp.fileOffset) + 4..<Int(ftyp.fileOffset) + 8, with: Array("free".utf8))
        let movie = try QuickTimeMovieParser().parse(MemoryByteSource(edited))
        #expect(movie.fileType == nil)
        #expect(movie.metadataValue(QuickTimeMovie.contentIdentifierKey)?.value.stringValue == "E905E6C6-C747-4805-942F-9904A0281F02")
    }
}
