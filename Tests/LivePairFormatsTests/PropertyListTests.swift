import LivePairFormats
import TestSupport
import Testing

@Suite("Property lists: XML and binary")
struct PropertyListTests {
    @Test("IMG_1853.AAE reads as an XML plist with its entries in order")
    func realXML() throws {
        let bytes = try SampleMedia.bytes("live/IMG_1853.AAE")
        #expect(PropertyListReader.encoding(of: bytes) == .xml)
        let root = try #require(try PropertyListReader().read(bytes).dictionaryValue)
        #expect(
            root.keys == [
                "adjustmentBaseVersion", "adjustmentData", "adjustmentEditorBundleID", "adjustmentFormatIdentifier",
                "adjustmentFormatVersion", "adjustmentTimestamp",
            ])
        #expect(root["adjustmentBaseVersion"] == .integer(0))
        #expect(root["adjustmentData"]?.dataValue?.count == 242)
        #expect(root["adjustmentData"]?.dataValue?.prefix(4) == [0x6D, 0x90, 0x41, 0x4F])
        #expect(root["adjustmentEditorBundleID"] == .string("com.apple.Photos"))
        #expect(root["adjustmentFormatVersion"] == .string("1.4"))
        let date = try #require(root["adjustmentTimestamp"]?.dateValue)
        #expect(date.secondsSinceReferenceDate == 738_973_170)
        #expect(date.iso8601 == "2024-06-01T22:19:30Z")
    }

    @Test("the binary plist plistlib wrote of IMG_1853.AAE reads as the XML one")
    func binaryMatchesXML() throws {
        let binary = try AdjustmentFixtures.bytes("IMG_1853.binary.AAE")
        #expect(PropertyListReader.encoding(of: binary) == .binary)
        let fromBinary = try PropertyListReader().read(binary)
        let fromXML = try PropertyListReader().read(try SampleMedia.bytes("live/IMG_1853.AAE"))
        #expect(fromBinary == fromXML)
    }

    @Test("every type plistlib writes reads the same from its binary and XML forms")
    func everyType() throws {
        let binary = try PropertyListReader().read(try AdjustmentFixtures.bytes("every-type.bplist"))
        let xml = try PropertyListReader().read(try AdjustmentFixtures.bytes("every-type.plist"))
        #expect(binary == xml)
        let root = try #require(binary.dictionaryValue)
        #expect(root.keys.first == "ascii" && root.keys.last == "many")
        #expect(root["unicode"] == .string("caf\u{E9} \u{2014} \u{1F600}"))
        #expect(root["negative"] == .integer(-42))
        #expect(root["large"] == .integer(1 << 40 + 3))
        #expect(root["max"] == .integer(Int64.max))
        #expect(root["real"] == .real(0.3332932692307693))
        #expect(root["flag"] == .boolean(true) && root["off"] == .boolean(false))
        #expect(root["date"]?.dateValue?.iso8601 == "2025-12-29T04:07:22Z")
        #expect(root["bytes"]?.dataValue == (0..<512).map { UInt8($0 % 256) })
        let nested = try #require(root["nested"]?.dictionaryValue)
        #expect(
            nested["list"]
                == .array([
                    .integer(1), .string("two"),
                    .array([.real(3.5), .dictionary(PropertyListDictionary([PropertyListEntry("four", .integer(4))]))]),
                ]))
        #expect(nested["empty"] == .array([]) && nested["emptyDict"] == .dictionary(PropertyListDictionary()))
        #expect(root["many"] == .array((0..<40).map { .integer(Int64($0)) }))
    }

    @Test("the XML writer gives Photos' AAE files back byte for byte", arguments: ["live/IMG_1853.AAE", "live/IMG_3582.AAE"])
    func writerRoundTrip(file: String) throws {
        let bytes = try SampleMedia.bytes(file)
        let written = XMLPropertyListWriter.write(try PropertyListReader().read(bytes))
        #expect(written == bytes)
    }

    @Test("what the XML writer writes reads back the same, for every type")
    func writerEveryType() throws {
        let value = try PropertyListReader().read(try AdjustmentFixtures.bytes("every-type.bplist"))
        #expect(try PropertyListReader().read(XMLPropertyListWriter.write(value)) == value)
        let escaped = PropertyListValue.dictionary(
            PropertyListDictionary([PropertyListEntry("a<&>b", .string("<tag> & \"quote\""))]))
        #expect(try PropertyListReader().read(XMLPropertyListWriter.write(escaped)) == escaped)
    }

    @Test("dates: ISO 8601 in and out, before and after the reference date")
    func dates() throws {
        #expect(PropertyListDate(iso8601: "2001-01-01T00:00:00Z")?.secondsSinceReferenceDate == 0)
        #expect(PropertyListDate(iso8601: "1970-01-01T00:00:00Z")?.secondsSince1970 == 0)
        #expect(PropertyListDate(iso8601: "2000-02-29T23:59:59Z")?.iso8601 == "2000-02-29T23:59:59Z")
        #expect(PropertyListDate(iso8601: "1969-12-31T23:59:59.5Z")?.secondsSince1970 == -0.5)
        #expect(PropertyListDate(secondsSince1970: -0.5).iso8601 == "1969-12-31T23:59:59Z")
        #expect(PropertyListDate(iso8601: "2024-13-01T00:00:00Z") == nil)
        #expect(PropertyListDate(iso8601: "2024-06-01 22:19:30") == nil)
    }

    @Test("base64 decoding skips whitespace and refuses other characters")
    func base64() {
        #expect(Base64.decode(Array("aGVs\n\tbG8=".utf8)) == Array("hello".utf8))
        #expect(Base64.encode(Array("hello".utf8)) == "aGVsbG8=")
        #expect(Base64.decode(Array("aGV*".utf8)) == nil)
        #expect(Base64.decode(Array("aG=V".utf8)) == nil)
    }
}
