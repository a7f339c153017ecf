/// A growing byte buffer that reports are written into before one write to the output: appends
/// bytes, ASCII text and decimal numbers without building intermediate `String`s.
package struct OutputBuffer: Sendable {
    /// The bytes written so far.
    package private(set) var bytes: [UInt8] = []

    /// An empty buffer with room for `capacity` bytes.
    package init(capacity: Int = 4096) { bytes.reserveCapacity(capacity) }

    /// Appends one byte.
    package mutating func append(_ byte: UInt8) { bytes.append(byte) }

    /// Appends the UTF-8 bytes of `text`.
    package mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends the bytes of `raw`.
    package mutating func append(bytes raw: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: raw) }

    /// Removes the bytes from `offset` to the end and returns them (to rewrite what was appended).
    package mutating func removeBytes(from offset: Int) -> [UInt8] {
        let removed = Array(bytes[offset...])
        bytes.removeSubrange(offset...)
        return removed
    }

    /// Appends `count` copies of `byte`.
    package mutating func append(_ byte: UInt8, count: Int) {
        guard count > 0 else { return }
        bytes.append(contentsOf: repeatElement(byte, count: count))
    }

    /// Appends `value` in decimal.
    package mutating func append(decimal value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
            UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { raw in
            repeat {
                raw[19 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            bytes.append(contentsOf: raw[(20 - count)...])
        }
    }
}
