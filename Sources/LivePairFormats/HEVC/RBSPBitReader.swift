/// Reads the bits of an H.264/HEVC NAL unit's payload (its RBSP): the emulation-prevention
/// bytes (`00 00 03`) are removed first; fixed-width fields and Exp-Golomb codes (`ue(v)`,
/// `se(v)`) are read most significant bit first.
public struct RBSPBitReader: Sendable {
    private let bytes: [UInt8]
    private var bit = 0
    private let context: String

    /// A reader over `payload` (the NAL unit without its header), named `context` in errors.
    public init(payload: ArraySlice<UInt8>, context: String) {
        var unescaped: [UInt8] = []
        unescaped.reserveCapacity(payload.count)
        var zeros = 0
        for byte in payload {
            if zeros >= 2, byte == 3 {
                zeros = 0
                continue
            }
            zeros = byte == 0 ? zeros + 1 : 0
            unescaped.append(byte)
        }
        bytes = unescaped
        self.context = context
    }

    /// One bit.
    public mutating func flag() throws(FormatError) -> Bool { try bits(1) == 1 }

    /// `count` bits (at most 32) as an unsigned number.
    public mutating func bits(_ count: Int) throws(FormatError) -> UInt32 {
        guard count <= 32, bit + count <= bytes.count * 8 else {
            throw .truncated(context: context, needed: UInt64((bit + count + 7) / 8), available: UInt64(bytes.count))
        }
        var value: UInt32 = 0
        for _ in 0..<count {
            value = value << 1 | UInt32(bytes[bit >> 3] >> (7 - UInt8(bit & 7)) & 1)
            bit += 1
        }
        return value
    }

    /// An unsigned Exp-Golomb code, `ue(v)` (at most 31 leading zeros).
    public mutating func unsignedGolomb() throws(FormatError) -> UInt32 {
        var leadingZeros = 0
        while try !flag() {
            leadingZeros += 1
            guard leadingZeros < 32 else { throw .invalid(context: context, reason: "an Exp-Golomb code is longer than 32 bits") }
        }
        return UInt32((UInt64(1) << leadingZeros) - 1 + UInt64(try bits(leadingZeros)))
    }

    /// A signed Exp-Golomb code, `se(v)`.
    public mutating func signedGolomb() throws(FormatError) -> Int32 {
        let code = try unsignedGolomb()
        let magnitude = Int32(bitPattern: (code + 1) / 2)
        return code % 2 == 1 ? magnitude : -magnitude
    }
}
