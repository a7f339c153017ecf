import LivePairCrypto

/// The SHA-256 of a resource's bytes, as 64 lowercase hexadecimal digits: the name under which
/// the resource store keeps it.
public struct ContentDigest: Sendable, Hashable, CustomStringConvertible {
    /// The digest in lowercase hexadecimal (64 characters).
    public let hex: String

    /// A digest from its hexadecimal text; nil unless it is 64 hexadecimal digits (either case).
    public init?(hex: String) {
        let lowered = hex.lowercased()
        guard lowered.utf8.count == 64, lowered.utf8.allSatisfy(Self.isHexDigit) else { return nil }
        self.hex = lowered
    }

    /// A digest from the 32 bytes of a SHA-256.
    public init(bytes: [UInt8]) {
        precondition(bytes.count == 32, "a SHA-256 digest has 32 bytes")
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        hex = String(decoding: text, as: UTF8.self)
    }

    /// The digest of `bytes`.
    public static func of(_ bytes: [UInt8]) -> ContentDigest { ContentDigest(bytes: SHA256.hash(bytes)) }

    /// The hexadecimal text.
    public var description: String { hex }

    static func isHexDigit(_ character: UInt8) -> Bool {
        (character >= 0x30 && character <= 0x39) || (character >= 0x61 && character <= 0x66)
            || (character >= 0x41 && character <= 0x46)
    }
}
