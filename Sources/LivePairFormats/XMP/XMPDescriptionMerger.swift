/// Folds every top-level `rdf:Description` of an XMP packet into the first one, as androidx
/// media3 requires of a motion photo (its parser reads the first Description only; exiftool writes
/// one Description per namespace group). The other Descriptions' namespace declarations and
/// attributes (except `rdf:about`) move onto the first one's start tag, their child elements into
/// its body; everything else stays byte for byte. A packet with one Description is returned as
/// it is; one whose Descriptions bind a prefix to two different namespaces is returned as it is
/// too (merging would change the meaning of a name).
enum XMPDescriptionMerger {
    private struct Description {
        var start: XMLMarkupLocation
        var attributes: [(name: XMLName, range: Range<Int>)]
        var end: XMLMarkupLocation?
    }

    /// `packet` with a single top-level `rdf:Description`.
    static func merged(_ packet: [UInt8], limits: ParseLimits) throws(FormatError) -> [UInt8] {
        var descriptions: [Description] = []
        var depth = 0
        var rdfDepth: Int?
        try XMLScanner(limits: limits).scanLocated(packet) { event, location in
            switch event {
            case let .start(name, attributes):
                depth += 1
                if name.is(XMPNamespace.rdf, "RDF"), rdfDepth == nil { rdfDepth = depth }
                if let rdfDepth, depth == rdfDepth + 1, name.is(XMPNamespace.rdf, "Description") {
                    descriptions.append(Description(
                        start: location, attributes: Array(zip(attributes.map(\.name), location.attributeRanges)), end: nil))
                }
            case let .end(name):
                if let rdfDepth, depth == rdfDepth + 1, name.is(XMPNamespace.rdf, "Description"), !descriptions.isEmpty {
                    descriptions[descriptions.count - 1].end = location
                }
                depth -= 1
            case .text:
                break
            }
        }
        guard descriptions.count > 1, let first = descriptions.first, let firstEnd = first.end else { return packet }
        var bindings = first.start.namespaceDeclarations
        var addedAttributes = ""
        var body = ""
        var seenAttributes = Set(first.attributes.map { "\($0.name.namespaceURI ?? "") \($0.name.localName)" })
        for other in descriptions.dropFirst() {
            for (prefix, uri) in other.start.namespaceDeclarations.sorted(by: { $0.key < $1.key }) {
                if let bound = bindings[prefix] {
                    guard bound == uri else { return packet }
                    continue
                }
                bindings[prefix] = uri
                let name = prefix.isEmpty ? "xmlns" : "xmlns:\(prefix)"
                addedAttributes += "\n    \(name)=\"\(XMPPacketEditor.escaped(uri))\""
            }
            for (name, range) in other.attributes where !name.is(XMPNamespace.rdf, "about") {
                guard seenAttributes.insert("\(name.namespaceURI ?? "") \(name.localName)").inserted else { continue }
                addedAttributes += "\n    " + String(decoding: packet[range], as: UTF8.self)
            }
            if let end = other.end, !other.start.isEmptyElement {
                body += String(decoding: packet[other.start.range.upperBound..<end.range.lowerBound], as: UTF8.self)
            }
        }
        // Edits from the back, so earlier ranges stay valid.
        var result = packet
        for other in descriptions.dropFirst().reversed() {
            let end = other.end?.range.upperBound ?? other.start.range.upperBound
            var start = other.start.range.lowerBound
            while start > 0, [0x20, 0x09, 0x0A, 0x0D].contains(result[start - 1]) { start -= 1 }
            result.replaceSubrange(start..<end, with: [])
        }
        let startTag = first.start.range
        if first.start.isEmptyElement {
            let rdfPrefix = startTagPrefix(packet, startTag)
            let close = "</\(rdfPrefix)Description>"
            result.replaceSubrange(startTag.upperBound - 2..<startTag.upperBound, with: Array((addedAttributes + ">" + body + close).utf8))
        } else {
            result.insert(contentsOf: Array(body.utf8), at: firstEnd.range.lowerBound)
            result.insert(contentsOf: Array(addedAttributes.utf8), at: startTag.upperBound - 1)
        }
        return result
    }

    /// The `prefix:` of the element name at `range` ("" when it has none).
    private static func startTagPrefix(_ packet: [UInt8], _ range: Range<Int>) -> String {
        let name = packet[(range.lowerBound + 1)...].prefix { ![0x20, 0x09, 0x0A, 0x0D, 0x2F, 0x3E].contains($0) }
        guard let colon = name.firstIndex(of: 0x3A) else { return "" }
        return String(decoding: packet[name.startIndex...colon], as: UTF8.self)
    }
}
