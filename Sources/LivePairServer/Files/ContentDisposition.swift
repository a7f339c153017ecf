import Foundation

/// `Content-Disposition: attachment` naming a file (RFC 6266): control characters and the
/// characters that reorder text (bidirectional marks, embeddings, overrides and isolates, which
/// can make `photo\u{202E}gpj.exe` read as `photoexe.jpg`) are removed; `filename` carries an ASCII
/// form (other characters as `_`) and, for a name that is not all ASCII, `filename*=UTF-8''…`
/// carries it whole, percent-encoded.
enum ContentDisposition {
    /// The header value for `filename`.
    static func attachment(filename: String) -> String {
        let scalars = filename.unicodeScalars.filter { !isUnsafe($0) }
        let ascii = String(String.UnicodeScalarView(scalars.map { $0.isASCII && $0 != "\"" && $0 != "\\" ? $0 : "_" }))
        var value = "attachment; filename=\"\(ascii)\""
        if !scalars.allSatisfy(\.isASCII) {
            let encoded = String(String.UnicodeScalarView(scalars)).utf8.map { byte in
                isAttributeCharacter(byte) ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte)
            }
            value += "; filename*=UTF-8''" + encoded.joined()
        }
        return value
    }

    /// Control characters and the bidirectional formatting characters.
    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// RFC 8187's attr-char: sent as is in `filename*`.
    private static func isAttributeCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: "!#$&+-.^_`|~".utf8.contains(byte)
        }
    }
}
