import Foundation
import LivePairFormats
import TestSupport
import Testing

/// Builds classic TIFF blocks (either byte order) IFD by IFD.
struct TIFFBuilder {
    struct Entry {
        var tag: UInt16
        var type: UInt16
        var count: UInt32
        var value: [UInt8]
    }

    let littleEndian: Bool
    var bytes: [UInt8]

    init(littleEndian: Bool) {
        self.littleEndian = littleEndian
        bytes = littleEndian ? [0x49, 0x49, 42, 0, 0, 0, 0, 0] : [0x4D, 0x4D, 0, 42, 0, 0, 0, 0]
    }

    func u16(_ value: UInt16) -> [UInt8] {
        let be = [UInt8(value >> 8), UInt8(value & 0xFF)]
        return littleEndian ? be.reversed() : be
    }

    func u32(_ value: UInt32) -> [UInt8] {
        let be = [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        return littleEndian ? be.reversed() : be
    }

    func u64(_ value: UInt64) -> [UInt8] {
        let be = (0..<8).map { UInt8(value >> (56 - 8 * UInt64($0)) & 0xFF) }
        return littleEndian ? be.reversed() : be
    }

    func ascii(_ tag: UInt16, _ text: String) -> Entry {
        let value = Array(text.utf8) + [0]
        return Entry(tag: tag, type: 2, count: UInt32(value.count), value: value)
    }

    func short(_ tag: UInt16, _ value: UInt16) -> Entry { Entry(tag: tag, type: 3, count: 1, value: u16(value)) }
    func long(_ tag: UInt16, _ value: UInt32) -> Entry { Entry(tag: tag, type: 4, count: 1, value: u32(value)) }

    func rationals(_ tag: UInt16, _ values: [(UInt32, UInt32)]) -> Entry {
        Entry(tag: tag, type: 5, count: UInt32(values.count), value: values.flatMap { u32($0.0) + u32($0.1) })
    }

    /// Appends an IFD (values over four bytes go right after it); returns its offset.
    @discardableResult
    mutating func appendIFD(_ entries: [Entry], next: UInt32 = 0) -> Int {
        if bytes.count % 2 == 1 { bytes.append(0) }
        let offset = bytes.count
        var dataOffset = offset + 2 + 12 * entries.count + 4
        var table = u16(UInt16(entries.count))
        var data: [UInt8] = []
        for entry in entries {
            table += u16(entry.tag) + u16(entry.type) + u32(entry.count)
            if entry.value.count <= 4 {
                table += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
            } else {
                table += u32(UInt32(dataOffset))
                data += entry.value
                dataOffset += entry.value.count
            }
        }
        bytes += table + u32(next) + data
        return offset
    }

    /// The offset of an IFD's next-IFD field.
    func nextFieldOffset(ofIFDAt offset: Int, entryCount: Int) -> Int { offset + 2 + 12 * entryCount }

    mutating func patch32(at offset: Int, _ value: UInt32) { bytes.replaceSubrange(offset..<offset + 4, with: u32(value)) }

    mutating func setFirstIFD(_ offset: Int) { patch32(at: 4, UInt32(offset)) }
}

@Suite("TIFF / EXIF")
struct TIFFTests {
    let jpegSamples = [
        "live/train.jpg", "live/51F2BEF7-431A-4D31-8AC1-3284A57826AE.jpeg", "motion/PXL_20200710_061629144.MP.jpg",
        "plain/pixel_8.jpg", "broken/google_motion_photo_broken.jpg",
    ]

    func exif(_ file: String) throws -> (ExifMetadata, TIFFStructure) {
        let jpeg = try JPEGSegmentReader().read(try FileByteSource(path: SampleMedia.path(file)))
        let tiff = try TIFFReader().read(try #require(jpeg.exifTIFF), fileOffset: jpeg.exifTIFFFileOffset)
        return (ExifMetadata(tiff), tiff)
    }

    @Test func trainValues() throws {
        let (metadata, tiff) = try exif("live/train.jpg")
        #expect(!tiff.littleEndian)
        #expect(metadata.make == "Apple")
        #expect(metadata.model == "iPhone 6s")
        #expect(metadata.orientation == 1)
        #expect(
            metadata.dateTimeOriginal
                == CaptureDate(year: 2021, month: 4, day: 10, hour: 11, minute: 44, second: 0, nanoseconds: 814_000_000, utcOffsetMinutes: 60))
        #expect(metadata.dateTimeOriginal?.iso8601 == "2021-04-10T11:44:00.814+01:00")
        #expect(metadata.pixelWidth == 4032 && metadata.pixelHeight == 3024)
        #expect(metadata.thumbnailOffset == 2340)
        #expect(metadata.thumbnailLength == 8612)
        let gps = try #require(metadata.gps)
        #expect(abs(gps.latitude - 52.2096777777778) < 1e-9)
        #expect(abs(gps.longitude - -0.895530555555556) < 1e-9)
        #expect(metadata.makerNote?.prefix(9) == Array("Apple iOS".utf8)[...])
        #expect(tiff.issues.isEmpty)
        // The thumbnail offset is file-relative: a JPEG starts there.
        let file = try SampleMedia.bytes("live/train.jpg")
        #expect(file[2340..<2343] == [0xFF, 0xD8, 0xFF])
    }

    @Test func littleEndianPixelValues() throws {
        let (metadata, tiff) = try exif("motion/PXL_20200710_061629144.MP.jpg")
        #expect(tiff.littleEndian)
        #expect(metadata.make == "Google")
        #expect(metadata.model == "Pixel 3a XL")
        #expect(metadata.dateTimeOriginal?.iso8601 == "2020-07-10T06:16:29.237898Z")
        #expect(metadata.appleMakerNote == nil)
    }

    @Test func orientationAndDateMatchExiftool() throws {
        guard ReferenceTool.isInstalled("exiftool") else { return }
        for file in jpegSamples {
            let (metadata, _) = try exif(file)
            let output = try ReferenceTool.run(
                "exiftool", ["-s3", "-n", "-Orientation", "-DateTimeOriginal", SampleMedia.path(file)])
            let lines = output.split(separator: "\n").map(String.init)
            #expect(metadata.orientation == lines.first.flatMap { Int($0) }, "\(file)")
            let expectedDate = lines.count > 1 ? lines[1] : nil
            if let expectedDate {
                let date = try #require(metadata.dateTimeOriginal, "\(file)")
                let oracle = try #require(CaptureDate(expectedDate), "\(file)")
                #expect(oracle.iso8601.prefix(19) == date.iso8601.prefix(19), "\(file)")
            } else {
                #expect(metadata.dateTimeOriginal == nil, "\(file)")
            }
        }
    }

    @Test func badImageExifDoesNotTrap() throws {
        let jpeg = try? JPEGSegmentReader().read(try FileByteSource(path: SampleMedia.path("broken/badimage.jpeg")))
        guard let tiffBytes = jpeg?.exifTIFF else { return }
        do {
            let tiff = try TIFFReader().read(tiffBytes, fileOffset: jpeg?.exifTIFFFileOffset)
            let metadata = ExifMetadata(tiff)
            #expect(metadata.make == "FUJIFILM")
            #expect(metadata.model == "X-T1")
        } catch {
            #expect(!error.code.isEmpty)
        }
    }

    @Test(arguments: [true, false]) func builtTIFF(littleEndian: Bool) throws {
        var builder = TIFFBuilder(littleEndian: littleEndian)
        let gps = builder.appendIFD([
            builder.ascii(0x0001, "S"), builder.rationals(0x0002, [(33, 1), (30, 1), (0, 1)]),
            builder.ascii(0x0003, "E"), builder.rationals(0x0004, [(151, 1), (12, 1), (36, 1)]),
        ])
        let exifIFD = builder.appendIFD([
            builder.ascii(0x9003, "2023:10:05 14:27:43"), builder.ascii(0x9291, "12"),
            builder.ascii(0x9011, "-07:00"), builder.long(0xA002, 4000), builder.short(0xA003, 3000),
            TIFFBuilder.Entry(tag: 0x927C, type: 7, count: 6, value: Array("Nikon\0".utf8)),
        ])
        let thumbnailData: [UInt8] = [0xFF, 0xD8, 0xFF, 0xD9]
        let thumbnailOffset = builder.bytes.count
        builder.bytes += thumbnailData
        let ifd1 = builder.appendIFD([builder.long(0x0201, UInt32(thumbnailOffset)), builder.long(0x0202, 4)])
        let ifd0 = builder.appendIFD(
            [
                builder.ascii(0x010F, "Maker"), builder.ascii(0x0110, "Model X"), builder.short(0x0112, 6),
                builder.ascii(0x0132, "2023:10:06 01:02:03"), builder.long(0x8769, UInt32(exifIFD)),
                builder.long(0x8825, UInt32(gps)),
            ], next: UInt32(ifd1))
        builder.setFirstIFD(ifd0)
        let tiff = try TIFFReader().read(builder.bytes, fileOffset: 1000)
        #expect(tiff.littleEndian == littleEndian)
        #expect(tiff.ifds.count == 4)
        let metadata = ExifMetadata(tiff)
        #expect(metadata.make == "Maker")
        #expect(metadata.model == "Model X")
        #expect(metadata.orientation == 6)
        #expect(metadata.dateTimeOriginal?.iso8601 == "2023-10-05T14:27:43.12-07:00")
        #expect(metadata.dateTime?.iso8601 == "2023-10-06T01:02:03")
        #expect(metadata.captureDate == metadata.dateTimeOriginal)
        #expect(metadata.pixelWidth == 4000 && metadata.pixelHeight == 3000)
        #expect(metadata.thumbnailOffset == UInt64(1000 + thumbnailOffset))
        #expect(metadata.thumbnailLength == 4)
        let position = try #require(metadata.gps)
        #expect(abs(position.latitude - -33.5) < 1e-9 && abs(position.longitude - 151.21) < 1e-9)
        #expect(metadata.makerNote == Array("Nikon\0".utf8))
        #expect(metadata.appleMakerNote == nil)
    }

    @Test func everyValueTypeDecodes() throws {
        var builder = TIFFBuilder(littleEndian: true)
        let ifd0 = builder.appendIFD([
            .init(tag: 1, type: 1, count: 2, value: [7, 250]),
            .init(tag: 2, type: 2, count: 3, value: Array("ab\0".utf8)),
            .init(tag: 3, type: 3, count: 2, value: builder.u16(1) + builder.u16(65535)),
            .init(tag: 4, type: 4, count: 1, value: builder.u32(0xDEAD_BEEF)),
            .init(tag: 5, type: 5, count: 1, value: builder.u32(3) + builder.u32(4)),
            .init(tag: 6, type: 6, count: 1, value: [0xFF]),
            .init(tag: 7, type: 7, count: 3, value: [1, 2, 3]),
            .init(tag: 8, type: 8, count: 1, value: builder.u16(0xFFFE)),
            .init(tag: 9, type: 9, count: 1, value: builder.u32(0xFFFF_FFFD)),
            .init(tag: 10, type: 10, count: 1, value: builder.u32(0xFFFF_FFFF) + builder.u32(2)),
            .init(tag: 11, type: 11, count: 1, value: builder.u32(Float(1.5).bitPattern)),
            .init(tag: 12, type: 12, count: 1, value: builder.u64(Double(-2.25).bitPattern)),
            .init(tag: 13, type: 13, count: 1, value: builder.u32(0)),
            .init(tag: 16, type: 16, count: 1, value: builder.u64(1 << 40)),
            .init(tag: 17, type: 17, count: 1, value: builder.u64(UInt64(bitPattern: -5))),
            .init(tag: 18, type: 18, count: 1, value: builder.u64(0)),
            .init(tag: 19, type: 25, count: 1, value: [0, 0, 0, 0]),  // unknown type: skipped
        ])
        builder.setFirstIFD(ifd0)
        let tiff = try TIFFReader().read(builder.bytes)
        let ifd = try #require(tiff.ifd0)
        #expect(ifd.entries.count == 16)
        #expect(ifd.skippedEntryCount == 1)
        #expect(ifd.entry(1)?.unsignedIntegers == [7, 250])
        #expect(ifd.entry(2)?.string == "ab")
        #expect(ifd.entry(3)?.unsignedIntegers == [1, 65535])
        #expect(ifd.entry(4)?.unsignedInteger == 0xDEAD_BEEF)
        #expect(ifd.entry(5)?.doubles == [0.75])
        #expect(ifd.entry(6)?.signedIntegers == [-1])
        #expect(ifd.entry(7)?.valueBytes == [1, 2, 3])
        #expect(ifd.entry(8)?.signedIntegers == [-2])
        #expect(ifd.entry(9)?.signedIntegers == [-3])
        #expect(ifd.entry(10)?.doubles == [-0.5])
        #expect(ifd.entry(11)?.doubles == [1.5])
        #expect(ifd.entry(12)?.doubles == [-2.25])
        #expect(ifd.entry(13)?.type == .ifd)
        #expect(ifd.entry(16)?.unsignedInteger == 1 << 40)
        #expect(ifd.entry(17)?.signedIntegers == [-5])
        #expect(ifd.entry(18)?.type == .ifd8)
    }

    @Test func ifdCyclesAreSkipped() throws {
        var builder = TIFFBuilder(littleEndian: false)
        let ifd0 = builder.appendIFD([builder.short(0x0112, 3), builder.long(0x8769, 8)])
        builder.setFirstIFD(ifd0)
        // The Exif pointer points back at IFD0 and IFD0's next link points at itself.
        builder.patch32(at: ifd0 + 2 + 12 + 8, UInt32(ifd0))
        builder.patch32(at: builder.nextFieldOffset(ofIFDAt: ifd0, entryCount: 2), UInt32(ifd0))
        let tiff = try TIFFReader().read(builder.bytes)
        #expect(tiff.ifds.count == 1)
        #expect(tiff.issues.count == 2)
        #expect(ExifMetadata(tiff).orientation == 3)
    }

    @Test func longChainsStopAtTheLimit() throws {
        var builder = TIFFBuilder(littleEndian: true)
        var next: UInt32 = 0
        for _ in 0..<10 { next = UInt32(builder.appendIFD([builder.short(0x0112, 1)], next: next)) }
        builder.setFirstIFD(Int(next))
        var limits = ParseLimits.default
        limits.maximumIFDChainLength = 5
        #expect(throws: FormatError.self) { try TIFFReader(limits: limits).read(builder.bytes) }
        #expect(try TIFFReader().read(builder.bytes).ifds.count == 10)
    }

    @Test func hugeCountsAreRejectedWithoutAllocating() throws {
        // BigTIFF header with an IFD declaring 2^32-1 entries.
        var big: [UInt8] = [0x49, 0x49, 43, 0, 8, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0]
        big += [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 40)
        #expect {
            try TIFFReader().read(big)
        } throws: { error in
            guard let error = error as? FormatError else { return false }
            return error.code == "limit-exceeded" || error.code == "truncated"
        }
        // A classic entry whose value count is 2^32-1 LONGs is skipped, not allocated.
        var builder = TIFFBuilder(littleEndian: false)
        let ifd0 = builder.appendIFD([
            .init(tag: 0x0111, type: 4, count: 0xFFFF_FFFF, value: builder.u32(8) + [0, 0, 0, 0]),
            builder.short(0x0112, 8),
        ])
        builder.setFirstIFD(ifd0)
        let tiff = try TIFFReader().read(builder.bytes)
        #expect(tiff.ifd0?.skippedEntryCount == 1)
        #expect(ExifMetadata(tiff).orientation == 8)
    }

    @Test func bigTIFFIsRead() throws {
        // II, 43, offset size 8, first IFD at 16: one entry (Orientation SHORT 5), next 0.
        var bytes: [UInt8] = [0x49, 0x49, 43, 0, 8, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0]
        bytes += [1, 0, 0, 0, 0, 0, 0, 0]
        bytes += [0x12, 0x01, 3, 0, 1, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0]
        bytes += [UInt8](repeating: 0, count: 8)
        let tiff = try TIFFReader().read(bytes)
        #expect(tiff.isBigTIFF)
        #expect(ExifMetadata(tiff).orientation == 5)
    }

    @Test func malformedHeadersThrow() {
        #expect(throws: FormatError.self) { try TIFFReader().read([0x4D, 0x4D, 0, 41, 0, 0, 0, 8]) }
        #expect(throws: FormatError.self) { try TIFFReader().read([0x41, 0x41, 0, 42, 0, 0, 0, 8]) }
        #expect(throws: FormatError.self) { try TIFFReader().read([0x4D, 0x4D, 0]) }
        #expect(throws: FormatError.self) { try TIFFReader().read([0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 5]) }
    }
}
