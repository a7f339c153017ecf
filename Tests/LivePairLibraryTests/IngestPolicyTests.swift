import Foundation
import LivePair
@testable import LivePairLibrary
import TestSupport
import Testing

/// The ingestion policy (docs/ingestion.md, docs/validation.md "upload"): a backend never loses an
/// upload for a reason that can be fixed later; only unreadable, damaged or conflicting uploads are
/// rejected, and what else validation finds stays on the asset.
@Suite("Ingestion policy: flags kept, damage rejected, dates and places")
struct IngestPolicyTests {
    typealias V = SampleVariants

    /// IMG_3582.mov with its still-image-time key renamed: the movie has no still-image time.
    static func movieWithoutStillImageTime() throws -> [UInt8] {
        V.replacingText(
            "com.apple.quicktime.still-image-time", with: "com.apple.quicktime.still-image-tiXe",
            in: try SampleMedia.bytes("live/IMG_3582.mov"))
    }

    @Test("a movie without a still-image time links with its still, in both orders; the asset keeps the flag and a derived still time", arguments: CatalogKind.underTest)
    func missingStillImageTimeIsAccepted(_ kind: CatalogKind) throws {
        let workspace = try V.Workspace()
        let movie = try workspace.write(try Self.movieWithoutStillImageTime(), as: "IMG_3582.mov")
        for movieFirst in [false, true] {
            let fixture = try IngestFixture("no-still-time-\(movieFirst)", kind)
            defer { fixture.remove() }
            let library = try fixture.open()
            let ingestor = Ingestor(library: library)
            let uploads = [(SampleMedia.path("live/IMG_3582.HEIC"), "IMG_3582.HEIC"), (movie, "IMG_3582.mov")]
            let ordered = movieFirst ? uploads.reversed() : uploads
            #expect(try ingestor.ingest(fileAt: ordered[0].0, owner: "o", originalFilename: ordered[0].1).kind == "pending")
            let linked = try ingestor.ingest(fileAt: ordered[1].0, owner: "o", originalFilename: ordered[1].1)
            let identifier = try #require(linked.localIdentifier, "the pair must be accepted, got \(linked)")
            #expect(linked.kind == "accepted")
            #expect(try ingestor.pendingUploads(olderThan: 0).isEmpty)
            let asset = try #require(try library.fetchAssets(withLocalIdentifiers: [identifier]).firstObject)
            #expect(asset.isLivePhoto)
            #expect(asset.contentIdentifier == "602FEBB7-6B59-4799-96E6-9C8484D873C7")
            let flag = try #require(asset.findings.first { $0.code == .missingStillImageTime })
            #expect(flag.severity == .error && flag.path == "IMG_3582.mov")
            #expect(asset.findings.allSatisfy { !$0.code.rejectsUpload })
            // The still was taken 0.603 s after the movie started (EXIF 09:27:06.603-05:00, movie
            // creationdate 09:27:06-05:00): the nearest frame is at 0.6 s (frames every 1/30 s).
            let time = try #require(asset.stillImageTime)
            #expect(abs(time - 0.6) < 1e-9, "derived still time \(time)")
            // Persisted: a reopened library reads the same findings and time.
            let reopened = try fixture.open()
            let again = try #require(try reopened.fetchAssets(withLocalIdentifiers: [identifier]).firstObject)
            #expect(again.findings == asset.findings && again.stillImageTime == time)
            _ = try IngestInvariants.check(library)
        }
    }

    @Test("a late movie without a still-image time attaches to its still imported alone, with the flag, the derived time and the date", arguments: CatalogKind.underTest)
    func lateMovieAttachesWithFlags(_ kind: CatalogKind) throws {
        let workspace = try V.Workspace()
        let movie = try workspace.write(try Self.movieWithoutStillImageTime(), as: "IMG_3582.mov")
        let fixture = try IngestFixture("late-flags", kind)
        defer { fixture.remove() }
        let library = try fixture.open()
        let ingestor = Ingestor(library: library)
        _ = try ingestor.ingest(fileAt: SampleMedia.path("live/IMG_3582.HEIC"), owner: "o", originalFilename: "IMG_3582.HEIC")
        let alone = try #require(try ingestor.importPendingAlone(try ingestor.pendingUploads(olderThan: 0)).first)
        let identifier = try #require(alone.localIdentifier)
        let attached = try ingestor.ingest(fileAt: movie, owner: "o", originalFilename: "IMG_3582.mov")
        #expect(attached == .accepted(localIdentifier: identifier))
        let asset = try #require(try library.fetchAssets(withLocalIdentifiers: [identifier]).firstObject)
        #expect(asset.isLivePhoto)
        #expect(asset.findings.contains { $0.code == .missingStillImageTime && $0.path == "IMG_3582.mov" })
        #expect(abs((asset.stillImageTime ?? -1) - 0.6) < 1e-9)
        _ = try IngestInvariants.check(library)
    }

    @Test("a pair with its own still-image time stores the movie's time and no error flag", arguments: CatalogKind.underTest)
    func ownStillImageTimeIsStored(_ kind: CatalogKind) throws {
        let fixture = try IngestFixture("own-still-time", kind)
        defer { fixture.remove() }
        let library = try fixture.open()
        let ingestor = Ingestor(library: library)
        _ = try ingestor.ingest(fileAt: SampleMedia.path("live/train.jpg"), owner: "o", originalFilename: "train.jpg")
        let linked = try ingestor.ingest(fileAt: SampleMedia.path("live/train.mov"), owner: "o", originalFilename: "train.mov")
        let identifier = try #require(linked.localIdentifier)
        let asset = try #require(try library.fetchAssets(withLocalIdentifiers: [identifier]).firstObject)
        #expect(asset.stillImageTime == 0.48)
        #expect(!asset.findings.contains { $0.severity == .error })
    }

    @Test("the derived still time is the middle frame when the photo's time is outside the movie")
    func derivedStillTimeFallsBackToTheMiddleFrame() throws {
        // train.jpg was taken 1.814 s after train.mov started, past its end (1.233 s).
        let workspace = try V.Workspace()
        let movie = try workspace.write(
            V.replacingText(
                "com.apple.quicktime.still-image-time", with: "com.apple.quicktime.still-image-tiXe",
                in: try SampleMedia.bytes("live/train.mov")), as: "train.mov")
        let photo = ResourceIdentifier().identify(path: SampleMedia.path("live/train.jpg"))
        let derived = try #require(
            StillImageTimeDerivation.stillImageTime(photo: photo, movie: ResourceIdentifier().identify(path: movie)))
        #expect(derived.isDerived)
        // ffprobe's video packet times (the movie has no edit-list shift): the middle one of the sorted list.
        let output = try ReferenceTool.run(
            "ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time", "-of", "csv=p=0", movie])
        let times = output.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }.sorted()
        #expect(times.count == 22)
        #expect(abs(derived.seconds - times[times.count / 2]) < 1e-6, "\(derived.seconds) vs \(times)")
    }

    @Test("damaged media are rejected with their own codes, whatever order the halves come in", arguments: CatalogKind.underTest)
    func damagedMediaAreRejected(_ kind: CatalogKind) throws {
        let workspace = try V.Workspace()
        let still = try SampleMedia.bytes("live/train.jpg")
        let movie = try SampleMedia.bytes("live/train.mov")
        var stscBroken = movie
        let stsc = try #require(V.box(["mdia", "minf", "stbl", "stsc"], in: movie, under: V.track(handler: "vide", in: movie)))
        // First entry's samples-per-chunk (full box header 4, entry count 4, first chunk 4).
        for index in 0..<4 { stscBroken[stsc.payloadOffset + 12 + index] = 0xFF }
        let hdlr = try #require(V.box(["mdia", "hdlr"], in: movie, under: V.track(handler: "vide", in: movie)))
        var handlerBroken = movie
        handlerBroken.replaceSubrange(hdlr.payloadOffset + 8..<hdlr.payloadOffset + 12, with: Array("vDde".utf8))
        let cases: [(name: String, bytes: [UInt8], code: FindingCode)] = [
            ("truncated.jpg", V.truncated(still, to: still.count * 2 / 3), .truncatedImageData),
            ("stsc.mov", stscBroken, .sampleTableOutOfFile),
            ("handler.mov", handlerBroken, .missingVideoTrack),
        ]
        let fixture = try IngestFixture("damaged", kind)
        defer { fixture.remove() }
        let library = try fixture.open()
        let ingestor = Ingestor(library: library)
        for entry in cases {
            let path = try workspace.write(entry.bytes, as: entry.name)
            guard case let .rejected(findings) = try ingestor.ingest(fileAt: path, owner: "o", originalFilename: entry.name) else {
                Issue.record("\(entry.name) must be rejected")
                continue
            }
            #expect(findings.map(\.code) == [entry.code], "\(entry.name): \(findings)")
            #expect(findings.first?.path == entry.name)
        }
        // A 2 GB sparse copy of each half (the real bytes, then zeros): the JPEG has no EOI at its
        // end, the movie has 2 GB that are not a box.
        for name in ["train.jpg", "train.mov"] {
            let path = try workspace.copy("live/" + name, as: "sparse-" + name)
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.truncate(atOffset: 2 << 30)
            try handle.close()
            guard case let .rejected(findings) = try ingestor.ingest(fileAt: path, owner: "o", originalFilename: name) else {
                Issue.record("the sparse \(name) must be rejected")
                continue
            }
            #expect(findings.map(\.code) == [name.hasSuffix(".jpg") ? .truncatedImageData : .corruptFile], "\(findings)")
        }
        #expect(try library.fetchAssets().count == 0)
        #expect(try ingestor.pendingUploads(olderThan: 0).isEmpty)
        #expect(try library.store.allDigests().isEmpty, "rejected uploads leave no stored file")
    }

    @Test("non-media uploads are not-media; the deep option rejects a still whose scan does not decode", arguments: CatalogKind.underTest)
    func notMediaAndDeepDecode(_ kind: CatalogKind) throws {
        let workspace = try V.Workspace()
        let fixture = try IngestFixture("not-media", kind)
        defer { fixture.remove() }
        let library = try fixture.open()
        for (name, text) in [("README", "hello\n"), ("IMG_0001.json", "{\"title\": \"x\"}")] {
            let path = try workspace.write(Array(text.utf8), as: name)
            guard case let .rejected(findings) = try Ingestor(library: library).ingest(fileAt: path, owner: "o", originalFilename: name)
            else {
                Issue.record("\(name) must be refused")
                continue
            }
            #expect(findings.map(\.code) == [.notMedia])
        }
        // An .AAE is an edit's adjustment data, kept even when unreadable: it waits for IMG_0001's photo.
        let aae = try workspace.write(Array("<?xml version=\"1.0\"?><plist/>".utf8), as: "IMG_0001.AAE")
        #expect(try Ingestor(library: library).ingest(fileAt: aae, owner: "o", originalFilename: "IMG_0001.AAE")
            == .pending(contentIdentifier: "edit:img_0001"))
        // Without a name it cannot belong to an edit: not media.
        #expect(try Ingestor(library: library).ingest(fileAt: aae, owner: "o").kind == "rejected")
        let bytes = try SampleMedia.bytes("live/train.jpg")
        let damaged = try workspace.write(
            V.overwriting(bytes, at: V.jpegScanDataOffset(in: bytes) + 10_000, count: 200_000, with: 0xFF), as: "train.jpg")
        let deep = Ingestor(library: library, options: IngestOptions(decodesMedia: true))
        guard case let .rejected(findings) = try deep.ingest(fileAt: damaged, owner: "o", originalFilename: "train.jpg") else {
            Issue.record("the undecodable still must be rejected with the deep option")
            return
        }
        #expect(findings.map(\.code) == [.undecodablePhoto])
        #expect(findings.first?.message.hasPrefix("the image data of train.jpg does not decode") == true)
        // Without it, metadata and the cheap checks pass: the still waits for its movie.
        #expect(try Ingestor(library: library).ingest(fileAt: damaged, owner: "o").kind == "pending")
        // A real still decodes.
        #expect(try deep.ingest(fileAt: SampleMedia.path("live/IMG_4580.HEIC"), owner: "o").kind == "pending")
    }

    @Test("a still without a UTC offset takes the movie's: 51F2BEF7 is dated 2019-12-30T03:01:15.505Z", arguments: CatalogKind.underTest)
    func dateTakesTheMoviesOffset(_ kind: CatalogKind) throws {
        let fixture = try IngestFixture("offset", kind)
        defer { fixture.remove() }
        let library = try fixture.open()
        let ingestor = Ingestor(library: library)
        let (still, movie) = ingestSamplePairs[3]
        _ = try ingestor.ingest(fileAt: SampleMedia.path(still), owner: "o")
        let linked = try ingestor.ingest(fileAt: SampleMedia.path(movie), owner: "o")
        let identifier = try #require(linked.localIdentifier)
        let asset = try #require(try library.fetchAssets(withLocalIdentifiers: [identifier]).firstObject)
        // exiftool: DateTimeOriginal 2019:12:29 19:01:15, SubSecTimeOriginal 505, no OffsetTime*;
        // the movie's com.apple.quicktime.creationdate 2019:12:29 19:01:14-08:00.
        let expected = try #require(ISO8601DateFormatter.fractional.date(from: "2019-12-30T03:01:15.505Z"))
        let date = try #require(asset.creationDate)
        #expect(abs(date.timeIntervalSince(expected)) < 0.001, "\(date)")
    }

    @Test("assets are placed where exiftool says the files were taken", arguments: [
        "live/IMG_3582.HEIC", "live/IMG_4580.HEIC", "live/train.jpg", "live/51F2BEF7-431A-4D31-8AC1-3284A57826AE.jpeg",
        "live/IMG_1853.HEIC", "plain/IMG_2682.heic", "plain/with-gps.mov", "motion/motionphoto.heic",
    ], CatalogKind.underTest)
    func locationFromGPS(_ sample: String, _ kind: CatalogKind) throws {
        let fixture = try IngestFixture("gps", kind)
        defer { fixture.remove() }
        let library = try fixture.open()
        let ingestor = Ingestor(library: library, options: IngestOptions())
        var outcome = try ingestor.ingest(fileAt: SampleMedia.path(sample), owner: "o")
        if case .pending = outcome {
            // A Live Photo still alone: imported alone, as a backend settles it.
            outcome = try #require(try ingestor.importPendingAlone(try ingestor.pendingUploads(olderThan: 0)).first)
        }
        let identifier = try #require(outcome.localIdentifier)
        let asset = try #require(try library.fetchAssets(withLocalIdentifiers: [identifier]).firstObject)
        let output = try ReferenceTool.run("exiftool", ["-n", "-s3", "-GPSLatitude", "-GPSLongitude", SampleMedia.path(sample)])
        let values = output.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        #expect(values.count == 2)
        let location = try #require(asset.location, "no location for \(sample)")
        #expect(abs(location.latitude - values[0]) < 1e-9 && abs(location.longitude - values[1]) < 1e-9, "\(location) vs \(values)")
    }
}

extension ISO8601DateFormatter {
    /// Parses dates with fractional seconds.
    static var fractional: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
