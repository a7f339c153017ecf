/// Base64 (RFC 4648) as XML property lists use it for `<data>`: whitespace between characters
/// is ignored when reading; lines are broken when writing.
public enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    /// Decodes base64 text, skipping whitespace; nil for any other character outside the alphabet
    /// or for misplaced padding.
    public static func decode<Text: Collection<UInt8>>(_ text: Text) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(text.count * 3 / 4)
        var accumulator: UInt32 = 0, bits = 0, padding = 0
        for byte in text {
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D: continue
            case UInt8(ascii: "="):
                padding += 1
                continue
            default:
                guard padding == 0 else { return nil }
                let value = values[Int(byte)]
                guard value != 0xFF else { return nil }
                accumulator = accumulator << 6 | UInt32(value)
                bits += 6
                if bits >= 8 {
                    bits -= 8
                    output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                }
            }
        }
        guard padding <= 2 else { return nil }
        return output
    }

    /// Encodes `bytes` with `=` padding, as one line.
    public static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let remaining = bytes.count - index
            let a = UInt32(bytes[index])
            let b = remaining > 1 ? UInt32(bytes[index + 1]) : 0
            let c = remaining > 2 ? UInt32(bytes[index + 2]) : 0
            let group = a << 16 | b << 8 | c
            output.append(alphabet[Int(group >> 18 & 63)])
            output.append(alphabet[Int(group >> 12 & 63)])
            output.append(remaining > 1 ? alphabet[Int(group >> 6 & 63)] : UInt8(ascii: "="))
            output.append(remaining > 2 ? alphabet[Int(group & 63)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }
}
