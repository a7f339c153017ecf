import LivePairFormats
import Testing

@Suite("Capture date")
struct CaptureDateTests {
    @Test func exifForm() throws {
        let date = try #require(CaptureDate("2023:10:05 14:27:43"))
        #expect(date == CaptureDate(year: 2023, month: 10, day: 5, hour: 14, minute: 27, second: 43))
        #expect(date.iso8601 == "2023-10-05T14:27:43")
        #expect(date.nanoseconds == nil && date.utcOffsetMinutes == nil)
    }

    @Test func exifWithSubsecondAndOffset() throws {
        let date = try #require(CaptureDate("2023:10:05 14:27:43", subsecond: "123", offset: "+02:00"))
        #expect(date.nanoseconds == 123_000_000)
        #expect(date.utcOffsetMinutes == 120)
        #expect(date.iso8601 == "2023-10-05T14:27:43.123+02:00")
        #expect(CaptureDate("2023:10:05 14:27:43", subsecond: "05", offset: "-05:30")?.iso8601
            == "2023-10-05T14:27:43.05-05:30")
        #expect(CaptureDate("2023:10:05 14:27:43\0", subsecond: "  ", offset: "")?.iso8601 == "2023-10-05T14:27:43")
    }

    @Test func iso8601Forms() throws {
        #expect(CaptureDate("2023-10-05T14:27:43+0200")?.utcOffsetMinutes == 120)
        #expect(CaptureDate("2023-10-05T14:27:43-07:00")?.utcOffsetMinutes == -420)
        #expect(CaptureDate("2023-10-05T14:27:43Z")?.utcOffsetMinutes == 0)
        #expect(CaptureDate("2023-10-05T14:27:43Z")?.iso8601 == "2023-10-05T14:27:43Z")
        #expect(CaptureDate("2023-10-05T14:27:43.5+05")?.iso8601 == "2023-10-05T14:27:43.5+05:00")
        #expect(CaptureDate("2023-10-05T14:27:43+0200")?.iso8601 == "2023-10-05T14:27:43+02:00")
        // The text's own offset wins over the separate field.
        #expect(CaptureDate("2023-10-05T14:27:43-07:00", offset: "+01:00")?.utcOffsetMinutes == -420)
    }

    @Test func blankAndZeroAreNil() {
        #expect(CaptureDate("0000:00:00 00:00:00") == nil)
        #expect(CaptureDate("") == nil)
        #expect(CaptureDate("    :  :     :  :  ") == nil)
        #expect(CaptureDate("                   ") == nil)
    }

    @Test func malformedIsNil() {
        #expect(CaptureDate(":07:04 16:24:01") == nil)
        #expect(CaptureDate("2023:13:05 14:27:43") == nil)
        #expect(CaptureDate("2023:10:05 14:27") == nil)
        #expect(CaptureDate("2023:10:05 14:27:43 junk") == nil)
        #expect(CaptureDate("2023-10-05T14:27:43+99:00") == nil)
        #expect(CaptureDate("2023-10-05T14:27:43.") == nil)
        #expect(CaptureDate("２０２３:10:05 14:27:43") == nil)
    }
}
