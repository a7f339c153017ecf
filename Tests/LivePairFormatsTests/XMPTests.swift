import LivePairFormats
import TestSupport
import Testing

@Suite("XMP")
struct XMPTests {
    func xmp(_ file: String) throws -> MotionPhotoXMP {
        let jpeg = try JPEGSegmentReader().read(try FileByteSource(path: SampleMedia.path(file)))
        return MotionPhotoXMP(try #require(jpeg.xmp))
    }

    @Test func pixelMotionPhoto() throws {
        let xmp = try xmp("motion/PXL_20200710_061629144.MP.jpg")
        #expect(xmp.malformation == nil)
        #expect(xmp.motionPhoto == 1)
        #expect(xmp.motionPhotoVersion == 1)
        #expect(xmp.motionPhotoPresentationTimestampUs == 0)
        #expect(xmp.presentationTimestampUs == 0)
        #expect(xmp.claimsMotionPhoto)
        #expect(
            xmp.containerItems == [
                ContainerItem(mime: "image/jpeg", semantic: "Primary", length: 0, padding: 0),
                ContainerItem(mime: "video/mp4", semantic: "MotionPhoto", length: 1_317_283, padding: 0),
            ])
        #expect(xmp.motionPhotoItemIndex == 1)
    }

    @Test func legacyMicroVideoAsChildElements() throws {
        let xmp = try xmp("broken/google_motion_photo_broken.jpg")
        #expect(xmp.microVideo == 1)
        #expect(xmp.microVideoVersion == 1)
        #expect(xmp.microVideoOffset == 1024)
        #expect(xmp.microVideoPresentationTimestampUs == -1)
        #expect(xmp.presentationTimestampUs == nil)
        #expect(xmp.motionPhoto == nil)
        #expect(xmp.claimsMotionPhoto)
        #expect(xmp.containerItems.isEmpty)
    }

    @Test func gainMapIsNotAMotionPhoto() throws {
        let xmp = try xmp("plain/pixel_8.jpg")
        #expect(!xmp.claimsMotionPhoto)
        #expect(xmp.containerItems.map(\.semantic) == ["Primary", "GainMap"])
        #expect(xmp.containerItems[0].length == nil)
        #expect(xmp.containerItems[1].length == 9554)
        #expect(xmp.motionPhotoItemIndex == nil)
        #expect(xmp.property(XMPNamespace.hdrGainMap, "Version") == "1.0")
    }

    @Test func arbitraryPrefixesAndChildElementItems() {
        let text = """
            <?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <a:xmpmeta xmlns:a="adobe:ns:meta/"><!-- comment -->
             <r:RDF xmlns:r="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
              <r:Description xmlns:cam="http://ns.google.com/photos/1.0/camera/"
                 xmlns:box="http://ns.google.com/photos/1.0/container/"
                 xmlns:it="http://ns.google.com/photos/1.0/container/item/">
               <cam:MotionPhoto> 1 </cam:MotionPhoto>
               <cam:MotionPhotoPresentationTimestampUs>1500000</cam:MotionPhotoPresentationTimestampUs>
               <box:Directory><r:Seq>
                 <r:li r:parseType="Resource"><it:Mime>image/jpeg</it:Mime><it:Semantic>Primary</it:Semantic>
                   <it:Padding>8</it:Padding></r:li>
                 <r:li><box:Item it:Mime='video/mp4' it:Semantic='MotionPhoto' it:Length='42'/></r:li>
               </r:Seq></box:Directory>
               <other:Title xmlns:other="urn:x">R&amp;D &lt;1&gt; &#x41;&#66;</other:Title>
              </r:Description>
             </r:RDF>
            </a:xmpmeta>
            <?xpacket end="w"?>
            """
        let xmp = MotionPhotoXMP(Array(text.utf8))
        #expect(xmp.malformation == nil)
        #expect(xmp.motionPhoto == 1)
        #expect(xmp.presentationTimestampUs == 1_500_000)
        #expect(
            xmp.containerItems == [
                ContainerItem(mime: "image/jpeg", semantic: "Primary", padding: 8),
                ContainerItem(mime: "video/mp4", semantic: "MotionPhoto", length: 42),
            ])
        #expect(xmp.property("urn:x", "Title") == "R&D <1> AB")
    }

    @Test func malformedXMLKeepsWhatWasRead() {
        let text = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" GCamera:MicroVideo="1"
              GCamera:MicroVideoOffset="77"><GCamera:Broken attr=noquotes>
            """
        let xmp = MotionPhotoXMP(Array(text.utf8))
        #expect(xmp.malformation != nil)
        #expect(xmp.microVideo == 1)
        #expect(xmp.microVideoOffset == 77)
    }

    @Test func malformedInputsNeverTrap() {
        let cases = [
            "", "<", "<a", "<a b", "<a b=", "<a b='", "</a>", "<a></b>", "<!--", "<![CDATA[x", "<?x", "&amp", "<a/><",
            String(repeating: "<a>", count: 1000), "<a x='&#xFFFFFFFF;'/>", "<a x='&#;'/>", "<:a/>", "<a:/>",
        ]
        for text in cases {
            let xmp = MotionPhotoXMP(Array(text.utf8))
            #expect(xmp.motionPhoto == nil, "\(text)")
        }
        let real = Array(
            """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description xmlns:Camera="http://ns.google.com/photos/1.0/camera/" Camera:MotionPhoto="1"/>
            </rdf:RDF></x:xmpmeta>
            """.utf8)
        for length in 0...real.count {
            _ = MotionPhotoXMP(Array(real.prefix(length)))
        }
        #expect(MotionPhotoXMP(real).motionPhoto == 1)
    }

    @Test func scannerEvents() throws {
        var events: [XMLEvent] = []
        try XMLScanner().scan(Array("<p:a xmlns:p='urn:p' p:k='v' u='w'>t<![CDATA[<c>]]><b/></p:a>".utf8)) {
            events.append($0)
        }
        let a = XMLName(namespaceURI: "urn:p", localName: "a", prefix: "p")
        let b = XMLName(namespaceURI: nil, localName: "b")
        #expect(
            events == [
                .start(a, [
                    XMLAttribute(name: XMLName(namespaceURI: "urn:p", localName: "k", prefix: "p"), value: "v"),
                    XMLAttribute(name: XMLName(namespaceURI: nil, localName: "u"), value: "w"),
                ]),
                .text("t"), .text("<c>"), .start(b, []), .end(b), .end(a),
            ])
        #expect(throws: FormatError.self) { try XMLScanner().scan(Array("<a></b>".utf8)) { _ in } }
    }
}
