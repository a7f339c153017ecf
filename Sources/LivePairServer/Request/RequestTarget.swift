/// A request target (`/path?query`) as sent, parsed strictly: no raw control character, space or
/// non-ASCII byte; every `%` followed by two hex digits; no path segment or query value that
/// decodes to a control character or to invalid UTF-8; at most `parameterLimit` query parameters.
/// The path stays percent-encoded, so an encoded `/` inside an identifier never splits it: the
/// router decodes each segment it takes as a parameter.
struct RequestTarget: Sendable {
    /// The most query parameters a request may have.
    static let parameterLimit = 64

    /// The path as sent (percent-encoded).
    let path: String
    /// Query parameters by name, decoded (`+` is a space; the last one wins when repeated).
    let query: [String: String]

    /// Parses `bytes`.
    /// - Throws: 400 for anything the rules above refuse.
    init(_ bytes: [UInt8]) throws(HTTPError) {
        guard !bytes.contains(where: { $0 <= 0x20 || $0 >= 0x7F }) else {
            throw .badRequest("the request target holds a control character, a space or a byte that is not ASCII")
        }
        let question = bytes.firstIndex(of: UInt8(ascii: "?"))
        let pathBytes = bytes[..<(question ?? bytes.endIndex)]
        for segment in pathBytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true) {
            _ = try Self.decode(segment, what: "path")
        }
        path = String(decoding: pathBytes, as: UTF8.self)
        var query: [String: String] = [:]
        if let question {
            let parameters = bytes[(question + 1)...].split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true)
            guard parameters.count <= Self.parameterLimit else {
                throw .badRequest("at most \(Self.parameterLimit) query parameters")
            }
            for parameter in parameters {
                let equals = parameter.firstIndex(of: UInt8(ascii: "="))
                let name = try Self.decode(parameter[..<(equals ?? parameter.endIndex)], what: "query", plusIsSpace: true)
                let value = try equals.map { equals throws(HTTPError) in
                    try Self.decode(parameter[(equals + 1)...], what: "query", plusIsSpace: true)
                }
                query[name] = value ?? ""
            }
        }
        self.query = query
    }

    /// The decoded text of one path segment or query part.
    /// - Throws: 400 for a bad escape, a control character or invalid UTF-8.
    static func decode(_ bytes: some Collection<UInt8>, what: String, plusIsSpace: Bool = false) throws(HTTPError) -> String {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var iterator = bytes.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    throw .badRequest("the \(what) has a '%' not followed by two hex digits")
                }
                decoded.append(high << 4 | low)
            } else {
                decoded.append(plusIsSpace && byte == UInt8(ascii: "+") ? 0x20 : byte)
            }
        }
        guard !decoded.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
            throw .badRequest("the \(what) holds a control character")
        }
        guard let text = String(validating: decoded, as: UTF8.self) else {
            throw .badRequest("the \(what) is not UTF-8")
        }
        return text
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
