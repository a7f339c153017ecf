import Foundation
import LivePair
import LivePairFormats
import TestSupport
import Testing

/// The integrity checks identification makes on every file (docs/ingestion.md "Damaged media"),
/// as `validate` reports them, on damaged copies of real samples; and the date and place helpers.
@Suite("Validation of damaged media (cheap checks), dates and places")
struct ValidationIntegrityTests {
    typealias V = SampleVariants

    @Test("a cut-off JPEG scan is truncated-image-data; the intact still and a motion photo's JPEG are not")
    func truncatedJPEGScan() throws {
        let workspace = try V.Workspace()
        let bytes = try SampleMedia.bytes("live/train.jpg")
        let path = try workspace.write(V.truncated(bytes, to: 1_500_000), as: "trunc.jpg")
        let report = ValidationFixture.report([path])
        #expect(ValidationFixture.summary(report) == ["truncated-image-data error trunc.jpg", "missing-pair-video warning trunc.jpg"])
        #expect(
            report.allFindings.first?.message
                == "trunc.jpg is a damaged JPEG image file: JPEG: the image data has no end marker (EOI) in its last 64 KiB "
                + "(ending at byte 1500000); it is cut off or followed by other data")
        // Intact: the still, the Pixel motion photo (EOI before its video), the Ultra HDR JPEG (two images).
        for sample in ["live/train.jpg", "motion/PXL_20200710_061629144.MP.jpg", "plain/pixel_8.jpg"] {
            #expect(ResourceIdentifier().identify(path: SampleMedia.path(sample)).issues.isEmpty, "\(sample)")
        }
    }

    @Test("stsc samples-per-chunk 0xFFFFFFFF is sample-table-out-of-file; a vide handler turned vDde is missing-video-track")
    func movieTables() throws {
        let workspace = try V.Workspace()
        let movie = try SampleMedia.bytes("live/train.mov")
        let video = try #require(V.track(handler: "vide", in: movie))
        let stsc = try #require(V.box(["mdia", "minf", "stbl", "stsc"], in: movie, under: video))
        let stscPath = try workspace.write(V.overwriting(movie, at: stsc.payloadOffset + 12, count: 4, with: 0xFF), as: "stsc.mov")
        let hdlr = try #require(V.box(["mdia", "hdlr"], in: movie, under: video))
        var renamed = movie
        renamed.replaceSubrange(hdlr.payloadOffset + 8..<hdlr.payloadOffset + 12, with: Array("vDde".utf8))
        let handlerPath = try workspace.write(renamed, as: "vdde.mov")
        // A chunk offset moved past the end of the file.
        let stco = try #require(V.box(["mdia", "minf", "stbl", "stco"], in: movie, under: video))
        let outsidePath = try workspace.write(V.overwriting(movie, at: stco.payloadOffset + 8, count: 4, with: 0x7F), as: "stco.mov")

        let stscReport = ValidationFixture.report([stscPath])
        #expect(ValidationFixture.summary(stscReport).first == "sample-table-out-of-file error stsc.mov")
        #expect(stscReport.allFindings.first?.message.hasSuffix(
            "movie: track 1 (vide): chunk 1 claims 4294967295 samples (stsc) but only 22 of the 22 samples (stsz) are left") == true)
        let handlerReport = ValidationFixture.report([handlerPath])
        #expect(ValidationFixture.summary(handlerReport).first == "missing-video-track error vdde.mov")
        #expect(handlerReport.allFindings.first?.message.hasSuffix("movie: no video track (track handlers: vDde, soun, meta, meta)") == true)
        let outside = ValidationFixture.report([outsidePath])
        #expect(ValidationFixture.summary(outside).first == "sample-table-out-of-file error stco.mov")
        #expect(outside.allFindings.first?.message.contains("ends past the end of the file (1509892 bytes)") == true)
    }

    @Test("every real sample passes the integrity checks")
    func realSamplesPass() throws {
        for sample in SampleMedia.manifest where !sample.file.hasPrefix("broken/") {
            let issues = ResourceIdentifier().identify(path: SampleMedia.path(sample.file)).issues
            #expect(issues.isEmpty, "\(sample.file): \(issues)")
        }
    }

    @Test("a still's date without offset takes the movie's: quarter hours up to 14 h within 5 s, else unchanged")
    func offsetFromTheMovie() throws {
        let still = try #require(CaptureDate("2019:12:29 19:01:15", subsecond: "505"))
        let movie = try #require(CaptureDate("2019-12-29T19:01:14-08:00"))
        #expect(still.fillingUTCOffset(from: movie).utcOffsetMinutes == -480)
        let utcMovie = try #require(CaptureDate("2019-12-30T03:01:14Z"))
        #expect(still.fillingUTCOffset(from: utcMovie).utcOffsetMinutes == -480)
        #expect(still.fillingUTCOffset(from: nil).utcOffsetMinutes == nil)
        // Not the same moment (a minute off): unchanged.
        let minuteLater = try #require(CaptureDate("2019-12-29T19:02:30-08:00"))
        #expect(still.fillingUTCOffset(from: minuteLater).utcOffsetMinutes == nil)
        // An offset already there is kept.
        let withOffset = try #require(CaptureDate("2019:12:29 19:01:15", offset: "+01:00"))
        #expect(withOffset.fillingUTCOffset(from: movie).utcOffsetMinutes == 60)
        #expect(abs(still.fillingUTCOffset(from: movie).seconds(since: movie) - 1.505) < 1e-6)
    }

    @Test("QuickTime ISO 6709 locations parse as exiftool reads them")
    func iso6709() {
        #expect(GPSCoordinate(iso6709: "+34.0083-118.4979+000.000/") == GPSCoordinate(latitude: 34.0083, longitude: -118.4979))
        #expect(GPSCoordinate(iso6709: "-33.8688+151.2093/") == GPSCoordinate(latitude: -33.8688, longitude: 151.2093))
        #expect(GPSCoordinate(iso6709: "+91.0+000.0/") == nil)
        #expect(GPSCoordinate(iso6709: "north") == nil)
        #expect(GPSCoordinate(iso6709: "+12.5") == nil)
    }
}
