/// A qualified XML name with its namespace resolved.
public struct XMLName: Sendable, Equatable, Hashable {
    /// The namespace URI the prefix maps to (nil when unprefixed without a default namespace, or undeclared).
    public let namespaceURI: String?
    /// The local part of the name.
    public let localName: String
    /// The prefix as written (empty when none).
    public let prefix: String

    /// Memberwise initializer.
    public init(namespaceURI: String?, localName: String, prefix: String = "") {
        self.namespaceURI = namespaceURI
        self.localName = localName
        self.prefix = prefix
    }

    /// True when the name is `localName` in namespace `uri`.
    public func `is`(_ uri: String, _ localName: String) -> Bool {
        self.localName == localName && namespaceURI == uri
    }
}

/// One attribute of an element (namespace declarations are not reported as attributes).
public struct XMLAttribute: Sendable, Equatable {
    /// The attribute's name (unprefixed attributes have no namespace).
    public let name: XMLName
    /// The value with entities decoded.
    public let value: String

    /// Memberwise initializer.
    public init(name: XMLName, value: String) {
        self.name = name
        self.value = value
    }
}

/// What the scanner reports, in document order.
public enum XMLEvent: Sendable, Equatable {
    /// A start tag (also sent for empty-element tags, followed at once by `end`).
    case start(XMLName, [XMLAttribute])
    /// An end tag.
    case end(XMLName)
    /// Character data between tags (entities decoded; CDATA included), reported when not only whitespace.
    case text(String)
}

/// Where the markup of one `XMLEvent` lies in the scanned bytes.
public struct XMLMarkupLocation: Sendable, Equatable {
    /// The bytes of the tag (`<` through `>`), of the text run, or of the CDATA section. The `end`
    /// event of an empty-element tag (`<a/>`) carries the range of that same tag.
    public let range: Range<Int>
    /// For a start tag: each reported attribute's bytes (name through closing quote), in the order
    /// of the event's attributes. Empty for other events.
    public let attributeRanges: [Range<Int>]
    /// For a start tag: the namespaces it declares, by prefix ("" for the default namespace).
    public let namespaceDeclarations: [String: String]
    /// Whether the tag is an empty-element tag (`<a/>`).
    public let isEmptyElement: Bool

    /// Memberwise initializer.
    public init(
        range: Range<Int>, attributeRanges: [Range<Int>] = [], namespaceDeclarations: [String: String] = [:],
        isEmptyElement: Bool = false
    ) {
        self.range = range
        self.attributeRanges = attributeRanges
        self.namespaceDeclarations = namespaceDeclarations
        self.isEmptyElement = isEmptyElement
    }
}

/// A small, bounded, non-validating XML scanner over raw bytes, with namespace prefixes resolved
/// to URIs. It understands elements, attributes, text, CDATA, comments, processing instructions
/// and DOCTYPE (skipped), and the five predefined entities plus character references.
/// Malformed input throws `FormatError.invalid` after the events before the fault were delivered.
public struct XMLScanner: Sendable {
    /// Deepest element nesting accepted.
    public static let maximumElementDepth = 256
    /// The namespace bound to the `xml` prefix.
    static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"

    /// The limits applied (`maximumMetadataBytes` bounds the input).
    public let limits: ParseLimits

    /// A scanner applying `limits`.
    public init(limits: ParseLimits = .default) { self.limits = limits }

    /// Scans `bytes`, delivering each event to `handler`.
    public func scan(_ bytes: [UInt8], handler: (XMLEvent) -> Void) throws(FormatError) {
        try scanLocated(bytes) { event, _ in handler(event) }
    }

    /// Scans `bytes`, delivering each event with where its markup lies in `bytes` (for editors
    /// that change a document in place and keep every other byte).
    public func scanLocated(_ bytes: [UInt8], handler: (XMLEvent, XMLMarkupLocation) -> Void) throws(FormatError) {
        try limits.checkMetadataSize(UInt64(bytes.count), context: "XML")
        var cursor = 0
        let count = bytes.count
        var namespaceStack: [[String: String]] = [["xml": Self.xmlNamespace]]
        var openElements: [(raw: String, name: XMLName)] = []
        var textStart = 0

        func fail(_ reason: String) -> FormatError { .invalid(context: "XML at byte \(cursor)", reason: reason) }
        func find(_ needle: [UInt8], from start: Int) -> Int? {
            guard !needle.isEmpty, count >= needle.count else { return nil }
            var index = start
            while index <= count - needle.count {
                if bytes[index] == needle[0] {
                    var matched = true
                    for offset in 1..<needle.count where bytes[index + offset] != needle[offset] {
                        matched = false
                        break
                    }
                    if matched { return index }
                }
                index += 1
            }
            return nil
        }
        func resolve(_ raw: String, isAttribute: Bool) -> XMLName {
            let parts = raw.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let prefix = parts.count == 2 ? String(parts[0]) : ""
            let local = parts.count == 2 ? String(parts[1]) : raw
            if prefix.isEmpty && isAttribute { return XMLName(namespaceURI: nil, localName: local) }
            var uri: String?
            for scope in namespaceStack.reversed() {
                if let found = scope[prefix] {
                    uri = found.isEmpty ? nil : found
                    break
                }
            }
            return XMLName(namespaceURI: uri, localName: local, prefix: prefix)
        }
        func flushText(upTo end: Int) {
            guard end > textStart else { return }
            let slice = bytes[textStart..<end]
            if slice.contains(where: { !Self.isWhitespace($0) }) {
                handler(.text(Self.decodeEntities(slice)), XMLMarkupLocation(range: textStart..<end))
            }
        }

        while cursor < count {
            guard bytes[cursor] == 0x3C else {
                cursor += 1
                continue
            }
            flushText(upTo: cursor)
            let tagStart = cursor
            guard cursor + 1 < count else { throw fail("document ends inside a tag") }
            let next = bytes[cursor + 1]
            if next == 0x3F {  // <? ... ?>
                guard let close = find([0x3F, 0x3E], from: cursor + 2) else { throw fail("unterminated processing instruction") }
                cursor = close + 2
            } else if next == 0x21 {  // <!-- -->, <![CDATA[ ]]>, <!DOCTYPE >
                if bytes[cursor...].starts(with: [0x3C, 0x21, 0x2D, 0x2D]) {
                    guard let close = find([0x2D, 0x2D, 0x3E], from: cursor + 4) else { throw fail("unterminated comment") }
                    cursor = close + 3
                } else if bytes[cursor...].starts(with: Array("<![CDATA[".utf8)) {
                    guard let close = find([0x5D, 0x5D, 0x3E], from: cursor + 9) else { throw fail("unterminated CDATA") }
                    let text = String(decoding: bytes[(cursor + 9)..<close], as: UTF8.self)
                    if !text.isEmpty { handler(.text(text), XMLMarkupLocation(range: cursor..<close + 3)) }
                    cursor = close + 3
                } else {
                    guard let close = find([0x3E], from: cursor + 2) else { throw fail("unterminated declaration") }
                    cursor = close + 1
                }
            } else if next == 0x2F {  // </name>
                guard let close = find([0x3E], from: cursor + 2) else { throw fail("unterminated end tag") }
                var nameEnd = close
                while nameEnd > cursor + 2, Self.isWhitespace(bytes[nameEnd - 1]) { nameEnd -= 1 }
                let raw = String(decoding: bytes[(cursor + 2)..<nameEnd], as: UTF8.self)
                guard let open = openElements.popLast() else { throw fail("end tag </\(raw)> without a start tag") }
                guard open.raw == raw else { throw fail("end tag </\(raw)> does not match <\(open.raw)>") }
                handler(.end(open.name), XMLMarkupLocation(range: tagStart..<close + 1))
                namespaceStack.removeLast()
                cursor = close + 1
            } else {
                cursor += 1
                let nameStart = cursor
                while cursor < count, Self.isNameByte(bytes[cursor]) { cursor += 1 }
                guard cursor > nameStart else { throw fail("a tag without a name") }
                let rawName = String(decoding: bytes[nameStart..<cursor], as: UTF8.self)
                var rawAttributes: [(String, String)] = []
                var attributeRanges: [Range<Int>] = []
                var scope: [String: String] = [:]
                var selfClosing = false
                tag: while true {
                    while cursor < count, Self.isWhitespace(bytes[cursor]) { cursor += 1 }
                    guard cursor < count else { throw fail("document ends inside <\(rawName)>") }
                    switch bytes[cursor] {
                    case 0x3E:
                        cursor += 1
                        break tag
                    case 0x2F:
                        guard cursor + 1 < count, bytes[cursor + 1] == 0x3E else { throw fail("stray '/' in <\(rawName)>") }
                        selfClosing = true
                        cursor += 2
                        break tag
                    default:
                        let attributeStart = cursor
                        while cursor < count, Self.isNameByte(bytes[cursor]) { cursor += 1 }
                        guard cursor > attributeStart else { throw fail("unexpected byte in <\(rawName)>") }
                        let attributeName = String(decoding: bytes[attributeStart..<cursor], as: UTF8.self)
                        while cursor < count, Self.isWhitespace(bytes[cursor]) { cursor += 1 }
                        guard cursor < count, bytes[cursor] == 0x3D else { throw fail("attribute \(attributeName) has no value") }
                        cursor += 1
                        while cursor < count, Self.isWhitespace(bytes[cursor]) { cursor += 1 }
                        guard cursor < count, bytes[cursor] == 0x22 || bytes[cursor] == 0x27 else {
                            throw fail("attribute \(attributeName) value is not quoted")
                        }
                        let quote = bytes[cursor]
                        let valueStart = cursor + 1
                        guard let valueEnd = find([quote], from: valueStart) else {
                            throw fail("unterminated value of attribute \(attributeName)")
                        }
                        let value = Self.decodeEntities(bytes[valueStart..<valueEnd])
                        cursor = valueEnd + 1
                        if attributeName == "xmlns" {
                            scope[""] = value
                        } else if attributeName.hasPrefix("xmlns:") {
                            scope[String(attributeName.dropFirst(6))] = value
                        } else {
                            rawAttributes.append((attributeName, value))
                            attributeRanges.append(attributeStart..<cursor)
                        }
                    }
                }
                guard openElements.count < Self.maximumElementDepth else {
                    cursor = tagStart
                    throw fail("elements nested deeper than \(Self.maximumElementDepth)")
                }
                namespaceStack.append(scope)
                let name = resolve(rawName, isAttribute: false)
                let attributes = rawAttributes.map { XMLAttribute(name: resolve($0.0, isAttribute: true), value: $0.1) }
                let location = XMLMarkupLocation(
                    range: tagStart..<cursor, attributeRanges: attributeRanges, namespaceDeclarations: scope,
                    isEmptyElement: selfClosing)
                handler(.start(name, attributes), location)
                if selfClosing {
                    handler(.end(name), location)
                    namespaceStack.removeLast()
                } else {
                    openElements.append((rawName, name))
                }
            }
            textStart = cursor
        }
        flushText(upTo: count)
        if let open = openElements.last { throw fail("document ends inside <\(open.raw)>") }
    }

    @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    @inline(__always)
    static func isNameByte(_ byte: UInt8) -> Bool {
        !(isWhitespace(byte) || byte == 0x3D || byte == 0x3E || byte == 0x2F || byte == 0x3C || byte == 0x22
            || byte == 0x27 || byte == 0)
    }

    /// Decodes `&lt;`, `&gt;`, `&amp;`, `&quot;`, `&apos;` and `&#N;`/`&#xH;`; unknown entities stay as written.
    static func decodeEntities(_ bytes: ArraySlice<UInt8>) -> String {
        guard bytes.contains(0x26) else { return String(decoding: bytes, as: UTF8.self) }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            guard byte == 0x26, let semicolon = bytes[index...].prefix(12).firstIndex(of: 0x3B) else {
                output.append(byte)
                index += 1
                continue
            }
            let name = String(decoding: bytes[(index + 1)..<semicolon], as: UTF8.self)
            var replacement: [UInt8]?
            switch name {
            case "lt": replacement = [0x3C]
            case "gt": replacement = [0x3E]
            case "amp": replacement = [0x26]
            case "quot": replacement = [0x22]
            case "apos": replacement = [0x27]
            default:
                if name.hasPrefix("#") {
                    let digits = name.dropFirst()
                    let value = digits.hasPrefix("x") || digits.hasPrefix("X")
                        ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
                    if let value, let scalar = Unicode.Scalar(value) { replacement = Array(String(Character(scalar)).utf8) }
                }
            }
            if let replacement {
                output.append(contentsOf: replacement)
                index = semicolon + 1
            } else {
                output.append(byte)
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
