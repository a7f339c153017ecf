/// Just enough XML for S3's answers (ListObjectsV2 results and error documents): the text of
/// elements found by name, with the five predefined entities and character references decoded.
/// S3's documents are flat and carry no CDATA, comments or attributes the client needs.
enum S3XML {
    /// The contents (between the tags) of every `<name>...</name>` element, in document order.
    /// An element written `<name/>` has empty contents.
    static func elements(_ name: String, in document: Substring) -> [Substring] {
        var results: [Substring] = []
        let open = "<\(name)>", empty = "<\(name)/>", close = "</\(name)>"
        var rest = document[...]
        while let start = firstTag(open, orEmpty: empty, in: rest) {
            if start.isEmpty {
                results.append(rest[start.range.upperBound..<start.range.upperBound])
                rest = rest[start.range.upperBound...]
                continue
            }
            guard let end = rest[start.range.upperBound...].firstRange(of: close) else { break }
            results.append(rest[start.range.upperBound..<end.lowerBound])
            rest = rest[end.upperBound...]
        }
        return results
    }

    /// The decoded text of the first `<name>` element, nil when there is none.
    static func text(_ name: String, in document: Substring) -> String? {
        elements(name, in: document).first.map { decodeEntities($0) }
    }

    /// Replaces `&amp; &lt; &gt; &quot; &apos;` and `&#N;` / `&#xN;` with their characters; an
    /// unknown entity is kept as written.
    static func decodeEntities(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        var out = ""
        var rest = text
        while let ampersand = rest.firstIndex(of: "&") {
            out += rest[..<ampersand]
            guard let semicolon = rest[ampersand...].firstIndex(of: ";"),
                rest.distance(from: ampersand, to: semicolon) <= 10
            else {
                out += "&"
                rest = rest[rest.index(after: ampersand)...]
                continue
            }
            let entity = rest[rest.index(after: ampersand)..<semicolon]
            if let decoded = decode(entity) { out += decoded } else { out += rest[ampersand...semicolon] }
            rest = rest[rest.index(after: semicolon)...]
        }
        return out + rest
    }

    private static func decode(_ entity: Substring) -> String? {
        switch entity {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            guard entity.hasPrefix("#") else { return nil }
            let number = entity.dropFirst()
            let value = number.hasPrefix("x") ? UInt32(number.dropFirst(), radix: 16) : UInt32(number)
            return value.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        }
    }

    /// The first opening tag `open` or empty-element tag `empty` in `text`.
    private static func firstTag(
        _ open: String, orEmpty empty: String, in text: Substring
    ) -> (range: Range<Substring.Index>, isEmpty: Bool)? {
        let full = text.firstRange(of: open)
        let short = text.firstRange(of: empty)
        switch (full, short) {
        case (let full?, let short?): return full.lowerBound < short.lowerBound ? (full, false) : (short, true)
        case (let full?, nil): return (full, false)
        case (nil, let short?): return (short, true)
        case (nil, nil): return nil
        }
    }
}
