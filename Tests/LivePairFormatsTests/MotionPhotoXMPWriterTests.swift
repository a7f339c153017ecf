import Foundation
import LivePairFormats
import TestSupport
import Testing

@Suite("Writer: motion photo XMP")
struct MotionPhotoXMPWriterTests {
    static let writer = MotionPhotoXMPWriter(
        presentationTimestampUs: 1_234_567, primaryMime: "image/jpeg", videoMime: "video/mp4", videoLength: 987_654)

    func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func newPacketFollowsTheSpecification() throws {
        let packet = try Self.writer.packet()
        let xmp = MotionPhotoXMP(packet)
        #expect(xmp.malformation == nil)
        #expect(xmp.motionPhoto == 1)
        #expect(xmp.motionPhotoVersion == 1)
        #expect(xmp.motionPhotoPresentationTimestampUs == 1_234_567)
        #expect(
            xmp.containerItems == [
                ContainerItem(mime: "image/jpeg", semantic: "Primary", length: 0, padding: 0),
                ContainerItem(mime: "video/mp4", semantic: "MotionPhoto", length: 987_654, padding: 0),
            ])
        let string = text(packet)
        // The spelling Android's reader expects: Camera attributes on the first rdf:Description,
        // Container:Directory / rdf:Seq / rdf:li parseType Resource / Container:Item with Item attributes.
        #expect(string.contains("xmlns:Camera=\"http://ns.google.com/photos/1.0/camera/\""))
        #expect(string.contains("Camera:MotionPhoto=\"1\""))
        #expect(string.contains("<Container:Directory>"))
        #expect(string.contains("<rdf:li rdf:parseType=\"Resource\">"))
        #expect(string.contains("Item:Semantic=\"MotionPhoto\""))
        #expect(string.hasPrefix("<?xpacket begin="))
        #expect(string.hasSuffix("<?xpacket end=\"w\"?>"))
    }

    @Test func mergeKeepsEveryOtherProperty() throws {
        let source = try FileByteSource(path: SampleMedia.path("live/IMG_3582.HEIC"))
        let existing = try #require(try HEIFFile(source: source).xmp(from: source).first?.bytes)
        let merged = try Self.writer.merged(into: existing)
        let before = MotionPhotoXMP(existing), after = MotionPhotoXMP(merged)
        #expect(after.malformation == nil)
        for (name, value) in before.properties { #expect(after.properties[name] == value) }
        #expect(after.motionPhoto == 1)
        #expect(after.containerItems.count == 2)
        // Outside the inserted text, nothing changed: removing the insertions gives the input back.
        #expect(text(merged).contains("<mwg-rs:Regions rdf:parseType=\"Resource\">"))
        #expect(text(merged).contains("x:xmptk=\"XMP Core 6.0.0\""))
        // Merging again replaces rather than duplicates.
        let twice = try Self.writer.merged(into: merged)
        #expect(twice == merged)
    }

    @Test func mergeReplacesMotionPropertiesUnderAnyPrefix() throws {
        // The Pixel packet (Camera prefix) and a legacy MicroVideo packet with child elements.
        let pixel = try #require(try JPEGSegmentReader().read(FileByteSource(path: SampleMedia.path("motion/PXL_20200710_061629144.MP.jpg"))).xmp)
        let merged = MotionPhotoXMP(try Self.writer.merged(into: pixel))
        #expect(merged.motionPhotoPresentationTimestampUs == 1_234_567)
        #expect(merged.containerItems.last?.length == 987_654)
        let legacy = try #require(try JPEGSegmentReader().read(FileByteSource(path: SampleMedia.path("broken/google_motion_photo_broken.jpg"))).xmp)
        let fromLegacy = MotionPhotoXMP(try Self.writer.merged(into: legacy))
        #expect(fromLegacy.microVideo == nil)
        #expect(fromLegacy.microVideoOffset == nil)
        #expect(fromLegacy.microVideoPresentationTimestampUs == nil)
        #expect(fromLegacy.motionPhoto == 1)
        let samsung = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" xmlns:dc="http://purl.org/dc/elements/1.1/"
              GCamera:MotionPhoto="1" GCamera:MotionPhotoVersion="1" GCamera:MotionPhotoPresentationTimestampUs="5" GCamera:BurstID="x" dc:format="image/jpeg"/>
            </rdf:RDF></x:xmpmeta>
            """
        let fromSamsung = MotionPhotoXMP(try Self.writer.merged(into: Array(samsung.utf8)))
        #expect(fromSamsung.motionPhotoPresentationTimestampUs == 1_234_567)
        #expect(fromSamsung.property(XMPNamespace.googleCamera, "BurstID") == "x")
        #expect(fromSamsung.property("http://purl.org/dc/elements/1.1/", "format") == "image/jpeg")
    }

    @Test func prefixesAlreadyTakenAreNotRebound() throws {
        let packet = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
              xmlns:Camera="http://example.com/other/">
            <rdf:Description rdf:about="" Camera:Model="X"><Camera:Lens>L</Camera:Lens></rdf:Description>
            </rdf:RDF></x:xmpmeta>
            """
        let merged = MotionPhotoXMP(try Self.writer.merged(into: Array(packet.utf8)))
        #expect(merged.malformation == nil)
        #expect(merged.motionPhoto == 1)
        #expect(merged.property("http://example.com/other/", "Model") == "X")
        #expect(merged.property("http://example.com/other/", "Lens") == "L")
    }

    @Test func packetsWithoutADescriptionGetOne() throws {
        let packet = "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"></rdf:RDF></x:xmpmeta>"
        #expect(MotionPhotoXMP(try Self.writer.merged(into: Array(packet.utf8))).motionPhoto == 1)
    }

    @Test func malformedPacketsAreTypedErrors() {
        for packet in ["<x:xmpmeta><rdf:RDF>", "not xml at all", "<a><b></a>"] {
            #expect(throws: FormatError.self) { try Self.writer.merged(into: Array(packet.utf8)) }
        }
    }

    @Test func removingLeavesOtherPropertiesOrNothing() throws {
        let pixel = try #require(try JPEGSegmentReader().read(FileByteSource(path: SampleMedia.path("motion/PXL_20200710_061629144.MP.jpg"))).xmp)
        #expect(try MotionPhotoXMPWriter.removingMotionPhoto(from: pixel, keeping: []) == nil)
        let source = try FileByteSource(path: SampleMedia.path("live/IMG_3582.HEIC"))
        let iphone = try #require(try HEIFFile(source: source).xmp(from: source).first?.bytes)
        let merged = try Self.writer.merged(into: iphone)
        let stripped = try #require(try MotionPhotoXMPWriter.removingMotionPhoto(from: merged, keeping: []))
        #expect(MotionPhotoXMP(stripped).properties == MotionPhotoXMP(iphone).properties)
        #expect(MotionPhotoXMP(stripped).containerItems.isEmpty)
    }
}
