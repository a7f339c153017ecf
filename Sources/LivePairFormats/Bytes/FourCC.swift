/// A four-character code as used by ISO-BMFF boxes, QuickTime atoms and HEIF item types.
public struct FourCC: RawRepresentable, Hashable, Sendable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The four bytes, big-endian.
    public let rawValue: UInt32

    /// Wraps four bytes (big-endian).
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Makes a code from a four-byte ASCII string; other lengths are padded with spaces or cut.
    public init(_ text: String) {
        var value: UInt32 = 0
        var bytes = Array(text.utf8.prefix(4))
        while bytes.count < 4 { bytes.append(0x20) }
        for byte in bytes { value = value << 8 | UInt32(byte) }
        self.rawValue = value
    }

    /// Makes a code from a string literal such as `"moov"`, without creating a `String`
    /// (literals are compared in every parser's inner loop).
    public init(stringLiteral value: StaticString) {
        var code: UInt32 = 0
        value.withUTF8Buffer { buffer in
            for index in 0..<4 { code = code << 8 | UInt32(index < buffer.count ? buffer[index] : 0x20) }
        }
        self.rawValue = code
    }

    /// The four bytes in file order.
    public var bytes: [UInt8] {
        [UInt8(rawValue >> 24), UInt8(rawValue >> 16 & 0xFF), UInt8(rawValue >> 8 & 0xFF), UInt8(rawValue & 0xFF)]
    }

    /// The code as text, its bytes kept: printable ASCII as it is, control bytes as those
    /// characters, bytes that are not UTF-8 carried as `FileSystemPath` carries them. It is not
    /// escaped here: text output escapes it once (`TerminalText` shows `\xFF`), JSON output once
    /// (as it writes any carried byte).
    public var description: String {
        let printable = (0..<4).allSatisfy { shift in
            let byte = UInt8(truncatingIfNeeded: rawValue >> (24 - 8 * shift))
            return byte >= 0x20 && byte < 0x7F
        }
        if printable {
            return String(unsafeUninitializedCapacity: 4) { buffer in
                for shift in 0..<4 { buffer[shift] = UInt8(truncatingIfNeeded: rawValue >> (24 - 8 * shift)) }
                return 4
            }
        }
        return FileSystemPath.string(bytes: bytes)
    }
}
