/// File-system paths as Swift strings, reversibly.
///
/// On Linux a path is a string of bytes, not necessarily valid UTF-8. LivePair keeps paths as
/// `String` and carries every byte that cannot be decoded as a private-use scalar: byte `b`
/// (0x80...0xFF) becomes U+F700 + `b` (U+F780...U+F7FF). Those 128 private-use scalars are themselves
/// written byte by byte when a name really contains them, so that bytes → string → bytes is the
/// identity for every path. Paths that are valid UTF-8 without those scalars (nearly all) are
/// unchanged strings.
///
/// Every place that hands a path to the operating system goes through `withCString(_:_:)` (or the
/// system-call wrappers in `FileSystemPath+Calls.swift`); every name read from the system (program
/// arguments, directory entries) goes through `string(bytes:)`.
public enum FileSystemPath {
    /// The private-use scalars that stand for single bytes.
    static let escapedScalars: ClosedRange<UInt32> = 0xF780...0xF7FF
    /// Byte `b` is carried as scalar `b + escapeOffset`.
    static let escapeOffset: UInt32 = 0xF700

    /// The string for the path `bytes` (no terminating NUL).
    public static func string<Bytes: Collection<UInt8>>(bytes: Bytes) -> String {
        // Nearly every name is valid UTF-8 without escape scalars: that string is the answer.
        if let text = String(validating: bytes, as: UTF8.self), !needsConversion(text) { return text }
        let bytes = Array(bytes)
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            let length = wellFormedLength(bytes, at: index)
            guard length > 0 else {
                scalars.append(escaped(bytes[index]))
                index += 1
                continue
            }
            let scalar = decodeScalar(bytes[index..<index + length])
            if escapedScalars.contains(scalar.value) {
                for byte in bytes[index..<index + length] { scalars.append(escaped(byte)) }
            } else {
                scalars.append(scalar)
            }
            index += length
        }
        return String(scalars)
    }

    /// The length of the well-formed UTF-8 sequence starting at `index` (Unicode table 3-7), or 0.
    static func wellFormedLength(_ bytes: [UInt8], at index: Int) -> Int {
        let lead = bytes[index]
        let second: ClosedRange<UInt8>
        let length: Int
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
        case 0xE0: (length, second) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, second) = (3, 0x80...0xBF)
        case 0xED: (length, second) = (3, 0x80...0x9F)
        case 0xF0: (length, second) = (4, 0x90...0xBF)
        case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
        case 0xF4: (length, second) = (4, 0x80...0x8F)
        default: return 0
        }
        guard index + length <= bytes.count, second.contains(bytes[index + 1]) else { return 0 }
        for offset in 2..<length where !(0x80...0xBF).contains(bytes[index + offset]) { return 0 }
        return length
    }

    /// The scalar a well-formed UTF-8 sequence encodes.
    static func decodeScalar(_ sequence: ArraySlice<UInt8>) -> Unicode.Scalar {
        var value: UInt32
        switch sequence.count {
        case 1: return Unicode.Scalar(sequence[sequence.startIndex])
        case 2: value = UInt32(sequence[sequence.startIndex] & 0x1F)
        case 3: value = UInt32(sequence[sequence.startIndex] & 0x0F)
        default: value = UInt32(sequence[sequence.startIndex] & 0x07)
        }
        for byte in sequence.dropFirst() { value = value << 6 | UInt32(byte & 0x3F) }
        return Unicode.Scalar(value)!
    }

    /// The string for the NUL-terminated path at `pointer`.
    public static func string(cString pointer: UnsafePointer<CChar>) -> String {
        let length = strlenOf(pointer)
        return pointer.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
            string(bytes: UnsafeBufferPointer(start: bytes, count: length))
        }
    }

    /// The bytes of `path` as the operating system sees them (no terminating NUL).
    public static func bytes(_ path: String) -> [UInt8] {
        guard needsConversion(path) else { return Array(path.utf8) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(path.utf8.count)
        for scalar in path.unicodeScalars {
            if escapedScalars.contains(scalar.value) {
                bytes.append(UInt8(scalar.value - escapeOffset))
            } else {
                bytes.append(contentsOf: UTF8.encode(scalar)!)
            }
        }
        return bytes
    }

    /// Calls `body` with `path` as the NUL-terminated bytes the operating system expects.
    public static func withCString<Result>(_ path: String, _ body: (UnsafePointer<CChar>) -> Result) -> Result {
        guard needsConversion(path) else { return path.withCString(body) }
        var bytes = Self.bytes(path).map { CChar(bitPattern: $0) }
        bytes.append(0)
        return bytes.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    /// True when `path` carries bytes that are not valid UTF-8 (or the escape scalars themselves).
    public static func needsConversion(_ path: String) -> Bool {
        // The escape scalars are encoded EF 9E xx or EF 9F xx: look for 0xEF before decoding.
        guard path.utf8.contains(0xEF) else { return false }
        return path.unicodeScalars.contains { escapedScalars.contains($0.value) }
    }

    /// The scalar carrying `byte`.
    static func escaped(_ byte: UInt8) -> Unicode.Scalar {
        Unicode.Scalar(UInt32(byte) + escapeOffset)!
    }

    /// The byte an escape scalar carries, or nil for any other scalar.
    public static func escapedByte(_ scalar: Unicode.Scalar) -> UInt8? {
        escapedScalars.contains(scalar.value) ? UInt8(scalar.value - escapeOffset) : nil
    }

    private static func strlenOf(_ pointer: UnsafePointer<CChar>) -> Int {
        var length = 0
        while pointer[length] != 0 { length += 1 }
        return length
    }
}
