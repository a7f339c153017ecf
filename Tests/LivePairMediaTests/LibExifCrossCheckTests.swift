import Foundation
import LivePairFormats
import LibExifReference
import LivePairMedia
import TestSupport
import Testing

@Suite("libexif as an independent cross-check of LivePair's Exif reader")
struct LibExifCrossCheckTests {
    /// Every JPEG and HEIC sample that carries Exif.
    static let stills = SampleMedia.manifest.map(\.file).filter { file in
        let lower = file.lowercased()
        return !file.hasPrefix("broken/") && (lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg") || lower.hasSuffix(".heic"))
    }

    /// The Exif TIFF block of a sample, read by LivePair's container readers.
    static func exifTIFF(_ file: String) throws -> [UInt8]? {
        let source = try FileByteSource(path: SampleMedia.path(file))
        if file.lowercased().hasSuffix(".heic") { return try HEIFFile(source: source).exif(from: source)?.tiff }
        return try JPEGSegmentReader().read(source).exifTIFF
    }

    @Test("make, model, orientation and DateTimeOriginal agree", arguments: stills)
    func agree(file: String) throws {
        let tiff = try #require(try Self.exifTIFF(file), "\(file) has no Exif")
        let ours = try ExifMetadata.read(tiffBytes: tiff)
        let theirs = try LibExifReader.read(tiff: tiff)
        #expect(ours.make == theirs.make)
        #expect(ours.model == theirs.model)
        #expect(ours.orientation == theirs.orientation)
        if let date = ours.dateTimeOriginal {
            let stored = String(format: "%04d:%02d:%02d %02d:%02d:%02d", date.year, date.month, date.day, date.hour, date.minute, date.second)
            #expect(stored == theirs.dateTimeOriginal)
        } else {
            #expect(theirs.dateTimeOriginal == nil)
        }
        // The samples are camera files: both readers must have found something.
        #expect(theirs.make != nil || theirs.model != nil || theirs.orientation != nil)
    }

    @Test("garbage is a typed error from libexif, not a crash")
    func garbage() {
        #expect(throws: LibExifError.self) { try LibExifReader.read(tiff: [0x12, 0x34]) }
    }
}
