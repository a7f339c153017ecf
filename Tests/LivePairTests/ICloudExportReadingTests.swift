import LivePair
import LivePairFormats
import Testing

@Suite("iCloud Photos export: the CSV reader, Photo Details rows and their dates, layout detection")
struct ICloudExportReadingTests {
    private func rows(_ text: String, reader: CSVReader = CSVReader()) throws -> [[String]] {
        try reader.rows(Array(text.utf8))
    }

    @Test("quotes, commas and line breaks in fields, doubled quotes, CRLF, a byte order mark, blank lines")
    func csv() throws {
        #expect(try rows("a,b,c\nd,e,f\n") == [["a", "b", "c"], ["d", "e", "f"]])
        #expect(try rows("\"Beach, sunset.jpg\",\"say \"\"hi\"\"\",x\r\n\r\ny,,\r\n") == [["Beach, sunset.jpg", "say \"hi\"", "x"], ["y", "", ""]])
        #expect(try rows("\"two\nlines\",z") == [["two\nlines", "z"]])
        #expect(try CSVReader().rows([0xEF, 0xBB, 0xBF] + Array("imgName\rIMG_1.HEIC".utf8)) == [["imgName"], ["IMG_1.HEIC"]])
        #expect(try rows("") == [])
    }

    @Test("an unclosed quote and inputs past the bounds are typed errors")
    func csvBounds() throws {
        #expect(throws: CSVReader.Failure.unterminatedQuote) { try rows("a,\"b\nc") }
        #expect(throws: CSVReader.Failure.tooLarge("more than 2 rows")) { try rows("a\nb\nc\n", reader: CSVReader(maximumRows: 2)) }
        #expect(throws: CSVReader.Failure.tooLarge("more than 3 fields in a row")) {
            try rows("a,b,c,d\n", reader: CSVReader(maximumFields: 3))
        }
    }

    @Test("Photo Details rows: columns by header, yes/no flags, Apple's dates")
    func photoDetails() throws {
        let table = try rows(
            "imgName,fileChecksum,favorite,hidden,deleted,originalCreationDate,viewCount,importDate\n"
                + "IMG_1.HEIC,x=,yes,no,no,Friday October 06,2023 12:11 PM GMT,3,Friday October 06,2023 12:15 PM GMT\n"
                + "\"a, b.jpg\",y=,no,yes,yes,\"Monday January 01,2024 12:05 AM GMT+02:00\",0,\n,z=,yes,yes,yes,,,\n")
        let details = ICloudPhotoDetails.rows(table)
        #expect(details.map(\.name) == ["IMG_1.HEIC", "a, b.jpg"])
        #expect(details[0].isFavorite && !details[0].isHidden && !details[0].isDeleted)
        #expect(!details[1].isFavorite && details[1].isHidden && details[1].isDeleted)
        #expect(details[0].creationDate == CaptureDate(year: 2023, month: 10, day: 6, hour: 12, minute: 11, second: 0, utcOffsetMinutes: 0))
        #expect(details[1].creationDate == CaptureDate(year: 2024, month: 1, day: 1, hour: 0, minute: 5, second: 0, utcOffsetMinutes: 120))
        #expect(ICloudPhotoDetails.date("October 06,2023 1:00 PM UTC")?.hour == 13)
        #expect(ICloudPhotoDetails.date("Friday Octember 06,2023 12:11 PM GMT") == nil)
        #expect(ICloudPhotoDetails.date("Friday October 06,2023 13:11 PM GMT") == nil)
        #expect(ICloudPhotoDetails.date("") == nil)
    }

    @Test("each layout is detected from its files' paths")
    func detection() {
        #expect(ExportLayout.detect(paths: ["x/Takeout/Google Photos/Photos from 2020/a.jpg"]) == .takeout)
        #expect(ExportLayout.detect(paths: ["e/iCloud Photos/Photos/Photo Details-1.csv", "e/iCloud Photos/Photos/a.HEIC"]) == .icloud)
        #expect(ExportLayout.detect(paths: ["m/2025/05/26/IMG_3582_HEVC.MOV"]) == .icloudpd)
        #expect(ExportLayout.detect(paths: ["m/IMG_4580-adjusted.JPG"]) == .icloudpd)
        #expect(ExportLayout.detect(paths: ["f/IMG_1853.AAE", "f/IMG_1853.HEIC"]) == .imageCapture)
        #expect(ExportLayout.detect(paths: ["b/DCIM/Camera/20240112_213853.heic"]) == .smartSwitch)
        #expect(ExportLayout.detect(paths: ["b/DCIM/Camera/IMG_0001.heic", "c/notes.txt"]) == .plain)
        // Smart Switch: an iPhone's Live Photo it made a motion photo (immich #31289), and a PC
        // backup's gallery folders under the backup's time in milliseconds.
        #expect(ExportLayout.detect(paths: ["g/DCIM/Camera/20260613_161105_IMG_1487.HEIC"]) == .smartSwitch)
        #expect(ExportLayout.detect(paths: ["SM-S921N_x/1757590576343/PHOTO/DCIM/Screenshots/a.png"]) == .smartSwitch)
        #expect(ExportLayout.detect(paths: ["SM-S921N_x/1757590576343/PHOTO_ORIGIN/IMG_0001.jpg"]) == .smartSwitch)
        #expect(ExportLayout.detect(paths: ["x/175759057634/PHOTO/a.jpg", "x/1757590576343/PHOTO"]) == .plain)
        #expect(ExportLayout(rawValue: "image-capture") == .imageCapture && ExportLayout(rawValue: "smart-switch") == .smartSwitch)
    }
}
