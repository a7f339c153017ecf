import Foundation

/// RFC 9530's `Content-Digest` header: a dictionary of algorithm to `:base64:` byte sequence.
enum ContentDigestHeader {
    /// The SHA-256 the header declares, or nil when it names only other algorithms.
    /// - Throws: 400 when the sha-256 entry is not 32 bytes of base64.
    static func sha256(in header: String) throws(HTTPError) -> [UInt8]? {
        for member in header.split(separator: ",") {
            let parts = member.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "sha-256" else { continue }
            let value = parts[1].trimmingCharacters(in: .whitespaces)
            guard value.count > 2, value.hasPrefix(":"), value.hasSuffix(":"),
                let bytes = Data(base64Encoded: String(value.dropFirst().dropLast())), bytes.count == 32
            else { throw .badRequest("Content-Digest's sha-256 must be ':' + base64 of 32 bytes + ':'") }
            return Array(bytes)
        }
        return nil
    }
}
