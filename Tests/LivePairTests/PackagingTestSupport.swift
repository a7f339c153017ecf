import Foundation
import LivePair
import LivePairFormats
import LivePairMedia
import TestSupport
import Testing

/// Oracles for packaging tests: what ffprobe, ffmpeg and exiftool say about written files, and
/// the pixels the project's decoders get from a still.
enum PackagingOracle {
    /// The real Live Photo pairs (still, movie) in SampleMedia.
    static let pairs: [(photo: String, video: String)] = [
        ("live/IMG_3582.HEIC", "live/IMG_3582.mov"),
        ("live/IMG_4580.HEIC", "live/IMG_4580.mov"),
        ("live/51F2BEF7-431A-4D31-8AC1-3284A57826AE.jpeg", "live/51F2BEF7-431A-4D31-8AC1-3284A57826AE_3.mov"),
        ("live/train.jpg", "live/train.mov"),
        ("live/IMG_3582_edited.heic", "live/IMG_3582_edited.mov"),
    ]

    /// exiftool's identifier: `MediaGroupUUID` (Apple maker note tag 0x11) for stills,
    /// `Keys:ContentIdentifier` for movies.
    static func exiftoolIdentifier(_ path: String) throws -> String {
        try ReferenceTool.run("exiftool", ["-s3", "-MakerNotes:MediaGroupUUID", "-Keys:ContentIdentifier", path])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The first video stream's decoded frame count (ffprobe -count_frames).
    static func videoFrameCount(_ path: String) throws -> Int? {
        let video = try ReferenceTool.ffprobeStreams(path, countFrames: true).first { $0["codec_type"] as? String == "video" }
        return (video?["nb_read_frames"] as? String).flatMap { Int($0) }
    }

    /// ffprobe's start time of the still-image-time track (found by its track id, as LivePair's
    /// parser names it): the still-image time.
    static func dataStreamStartTime(_ path: String) throws -> Double? {
        let movie = try QuickTimeMovieParser().parse(try FileByteSource(path: path))
        let trackID = try #require(movie.stillImageTimeTrack?.header.trackID)
        let stream = try ReferenceTool.ffprobeStreams(path).first { $0["id"] as? String == "0x" + String(trackID, radix: 16) }
        return (stream?["start_time"] as? String).flatMap { Double($0) }
    }

    /// The presentation time of the input movie's video frame nearest `seconds`.
    static func nearestFrameTime(_ path: String, to seconds: Double) throws -> Double {
        let movie = try QuickTimeMovieParser().parse(try FileByteSource(path: path))
        let times = try #require(movie.videoTrack?.presentationTimes())
        return try #require(times.min { abs($0 - seconds) < abs($1 - seconds) })
    }

    /// A stream's property as text.
    static func videoProperty(_ path: String, _ key: String) throws -> String? {
        let video = try ReferenceTool.ffprobeStreams(path).first { $0["codec_type"] as? String == "video" }
        return video.flatMap { $0[key] }.map { "\($0)" }
    }

    /// The still's primary image, upright, as the project's decoders give it (turbojpeg for
    /// JPEG, the HEIF item parser with FFmpeg's HEVC decoder for HEIC).
    static func decodedStill(_ path: String) throws -> PixelBuffer {
        let source = try FileByteSource(path: path)
        if ResourceIdentifier().identify(path: path).format == .jpeg {
            return try JPEGImageDecoder().decode(try source.read(at: 0, count: Int(source.size)))
        }
        let file = try HEIFFile(source: source)
        let item = try #require(file.primaryItem?.id)
        return try HEICImageDecoder().decode(try file.imageRecipe(for: item, from: source))
    }

    /// The coded image bytes of a still: a JPEG's data from its start of scan to the end, a HEIC's
    /// primary item data (a grid's tiles included). Equal bytes decode to equal pixels.
    static func imageData(_ path: String) throws -> [UInt8] {
        let source = try FileByteSource(path: path)
        let jpeg = try JPEGSegmentReader().read(source)
        if jpeg.isJPEG {
            let start = try #require(jpeg.startOfScanFileOffset)
            return try source.read(at: start, count: Int(source.size - start))
        }
        let file = try HEIFFile(source: source)
        let primary = try #require(file.primaryItem)
        var bytes = try file.itemData(primary.id, from: source).bytes
        for tile in file.meta.references(from: primary.id, type: "dimg") { bytes += try file.itemData(tile, from: source).bytes }
        return bytes
    }

    /// Every file in `directory`, hidden ones included, sorted.
    static func listing(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    /// A file's bytes, for "unchanged" checks.
    static func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }
}
