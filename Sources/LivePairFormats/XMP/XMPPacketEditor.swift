/// Edits an XMP packet in place, byte for byte outside the edits: removes properties (attributes
/// or whole elements, wherever they are), and writes attributes and child elements into the first
/// top-level `rdf:Description` (creating one inside `rdf:RDF` when there is none). Namespace
/// prefixes are resolved against what is in scope, so an existing prefix is never given a second
/// meaning.
///
/// Properties written as attributes of the first `rdf:Description` are what Android's reader
/// (androidx `XmpMotionPhotoDescriptionParser`) requires of a motion photo.
struct XMPPacketEditor {
    /// A namespace used by the edit: its URI and the prefixes to try, in order of preference.
    struct Namespace {
        let uri: String
        let prefixes: [String]
    }

    /// An attribute to write: namespace, local name and value (unescaped).
    struct Attribute {
        let namespace: Namespace
        let localName: String
        let value: String
    }

    /// The prefixes chosen for the namespaces of an edit, given to the child-element builder.
    struct Prefixes {
        private var byURI: [String: String]

        init(_ byURI: [String: String]) { self.byURI = byURI }

        /// The prefix bound to `uri` ("" when none).
        func callAsFunction(_ uri: String) -> String { byURI[uri] ?? "" }
    }

    /// The limits applied to the scanned packet.
    let limits: ParseLimits

    /// `packet` without the properties `remove` selects, with `attributes` and the markup
    /// `children` builds (nil: none) written into the first top-level `rdf:Description`.
    /// `childNamespaces` are the namespaces `children` uses besides RDF.
    func edit(
        _ packet: [UInt8], removing remove: (XMLName) -> Bool, attributes: [Attribute],
        childNamespaces: [Namespace], children: ((Prefixes) -> String)?
    ) throws(FormatError) -> [UInt8] {
        var edits: [(range: Range<Int>, bytes: [UInt8])] = []
        var scopes: [[String: String]] = [["xml": XMLScanner.xmlNamespace]]
        var path: [XMLName] = []
        var removedElementStart: (depth: Int, start: Int)?
        var firstDescription: (name: XMLName, location: XMLMarkupLocation, scope: [String: String])?
        var rdfEnd: (name: XMLName, location: XMLMarkupLocation, scope: [String: String])?
        var rdfDepth: Int?

        try XMLScanner(limits: limits).scanLocated(packet) { event, location in
            switch event {
            case let .start(name, attributes):
                var scope = scopes.last ?? [:]
                scope.merge(location.namespaceDeclarations) { $1 }
                scopes.append(scope)
                path.append(name)
                guard removedElementStart == nil else { return }
                if remove(name) {
                    removedElementStart = (path.count, Self.startOfWhitespace(before: location.range.lowerBound, in: packet))
                    return
                }
                for (attribute, range) in zip(attributes, location.attributeRanges) where remove(attribute.name) {
                    edits.append((Self.startOfWhitespace(before: range.lowerBound, in: packet)..<range.upperBound, []))
                }
                if name.is(XMPNamespace.rdf, "RDF"), rdfDepth == nil { rdfDepth = path.count }
                if name.is(XMPNamespace.rdf, "Description"), firstDescription == nil, let rdfDepth,
                    path.count == rdfDepth + 1
                {
                    firstDescription = (name, location, scope)
                }
            case let .end(name):
                if let removed = removedElementStart, removed.depth == path.count {
                    edits.append((removed.start..<location.range.upperBound, []))
                    removedElementStart = nil
                }
                if let depth = rdfDepth, depth == path.count, name.is(XMPNamespace.rdf, "RDF"), rdfEnd == nil {
                    rdfEnd = (name, location, scopes.last ?? [:])
                }
                path.removeLast()
                scopes.removeLast()
            case .text:
                break
            }
        }
        guard !attributes.isEmpty || children != nil else { return Self.apply(edits, to: packet) }

        if let description = firstDescription {
            var declarations: [(String, String)] = []
            let prefixes = try Self.choosePrefixes(
                for: attributes.map(\.namespace) + childNamespaces, rdfPrefix: description.name.prefix,
                scope: description.scope, declarations: &declarations)
            let rdf = description.name.prefix.isEmpty ? prefixes(XMPNamespace.rdf) : description.name.prefix
            let attributeText = Self.attributeText(declarations: declarations, attributes: attributes, prefixes: prefixes)
            let childText = children.map { "\n" + $0(prefixes) } ?? ""
            let range = description.location.range
            if description.location.isEmptyElement {
                let close = "</\(Self.qualified(rdf, "Description"))>"
                edits.append((range.upperBound - 2..<range.upperBound, Array((attributeText + ">" + childText + "\n    " + close).utf8)))
            } else {
                edits.append((range.upperBound - 1..<range.upperBound - 1, Array(attributeText.utf8)))
                edits.append((range.upperBound..<range.upperBound, Array(childText.utf8)))
            }
        } else if let rdfEnd, !rdfEnd.location.isEmptyElement {
            var declarations: [(String, String)] = []
            let prefixes = try Self.choosePrefixes(
                for: attributes.map(\.namespace) + childNamespaces, rdfPrefix: rdfEnd.name.prefix,
                scope: rdfEnd.scope, declarations: &declarations)
            let rdf = rdfEnd.name.prefix.isEmpty ? prefixes(XMPNamespace.rdf) : rdfEnd.name.prefix
            let about = " \(Self.qualified(rdf, "about"))=\"\""
            let attributeText = Self.attributeText(declarations: declarations, attributes: attributes, prefixes: prefixes)
            let childText = children.map { "\n" + $0(prefixes) } ?? ""
            let element = "  <\(Self.qualified(rdf, "Description"))\(about)\(attributeText)>\(childText)\n  </\(Self.qualified(rdf, "Description"))>\n"
            let start = rdfEnd.location.range.lowerBound
            edits.append((start..<start, Array(element.utf8)))
        } else {
            throw .invalid(context: "XMP", reason: "no rdf:RDF element to hold the properties")
        }
        return Self.apply(edits, to: packet)
    }

    // MARK: Helpers

    /// Picks a prefix for each namespace: one already bound to its URI in `scope`, else the first
    /// candidate not bound at all (declared on the element). RDF keeps `rdfPrefix` when it has one.
    private static func choosePrefixes(
        for namespaces: [Namespace], rdfPrefix: String, scope: [String: String],
        declarations: inout [(String, String)]
    ) throws(FormatError) -> Prefixes {
        var chosen: [String: String] = [:]
        var bound = scope
        let rdf = Namespace(uri: XMPNamespace.rdf, prefixes: ["rdf", "rdfx"])
        var all = namespaces
        if rdfPrefix.isEmpty { all.append(rdf) } else { chosen[XMPNamespace.rdf] = rdfPrefix }
        for namespace in all where chosen[namespace.uri] == nil {
            let candidates = namespace.prefixes + (1...9).map { "\(namespace.prefixes.first ?? "ns")\($0)" }
            guard let prefix = candidates.first(where: { bound[$0] == namespace.uri || bound[$0] == nil }) else {
                throw .unsupported(context: "XMP", reason: "no free prefix for namespace \(namespace.uri)")
            }
            if bound[prefix] == nil {
                bound[prefix] = namespace.uri
                declarations.append((prefix, namespace.uri))
            }
            chosen[namespace.uri] = prefix
        }
        return Prefixes(chosen)
    }

    /// The text inserted into a start tag: namespace declarations, then attributes, one per line.
    private static func attributeText(
        declarations: [(String, String)], attributes: [Attribute], prefixes: Prefixes
    ) -> String {
        var text = ""
        for (prefix, uri) in declarations { text += "\n        xmlns:\(prefix)=\"\(escaped(uri))\"" }
        for attribute in attributes {
            text += "\n      \(qualified(prefixes(attribute.namespace.uri), attribute.localName))=\"\(escaped(attribute.value))\""
        }
        return text
    }

    /// `prefix:localName`, or `localName` without a prefix.
    static func qualified(_ prefix: String, _ localName: String) -> String {
        prefix.isEmpty ? localName : "\(prefix):\(localName)"
    }

    /// `text` escaped for an attribute value or character data.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.append(character)
            }
        }
        return result
    }

    /// The index where the run of whitespace ending at `index` starts.
    private static func startOfWhitespace(before index: Int, in bytes: [UInt8]) -> Int {
        var start = index
        while start > 0, XMLScanner.isWhitespace(bytes[start - 1]) { start -= 1 }
        return start
    }

    /// `bytes` with each range replaced; ranges must not overlap (an insertion may share its
    /// position with the start of a removal, and is applied first).
    private static func apply(_ edits: [(range: Range<Int>, bytes: [UInt8])], to bytes: [UInt8]) -> [UInt8] {
        let ordered = edits.enumerated().sorted { lhs, rhs in
            if lhs.element.range.lowerBound != rhs.element.range.lowerBound {
                return lhs.element.range.lowerBound < rhs.element.range.lowerBound
            }
            if lhs.element.range.isEmpty != rhs.element.range.isEmpty { return lhs.element.range.isEmpty }
            return lhs.offset < rhs.offset
        }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 2048)
        var cursor = 0
        for (_, edit) in ordered {
            let start = max(edit.range.lowerBound, cursor)
            output.append(contentsOf: bytes[cursor..<start])
            output.append(contentsOf: edit.bytes)
            cursor = max(cursor, edit.range.upperBound)
        }
        output.append(contentsOf: bytes[cursor...])
        return output
    }
}
