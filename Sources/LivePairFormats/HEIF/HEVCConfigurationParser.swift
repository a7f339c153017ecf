/// Parses an HEVC decoder configuration record (`hvcC`, ISO/IEC 14496-15 8.3.3.1).
public enum HEVCConfigurationParser {
    /// Size of the fixed part of the record, before the NAL unit arrays.
    public static let fixedHeaderSize = 23

    /// Parses `record` (the whole `hvcC` payload). Parameter sets are returned in record order;
    /// the NAL length size is `(lengthSizeMinusOne & 3) + 1` and must be 1, 2 or 4.
    public static func parse(_ record: [UInt8], limits: ParseLimits = .default) throws(FormatError)
        -> HEVCDecoderConfiguration
    {
        var reader = ByteReader(record, context: "hvcC")
        try reader.require(fixedHeaderSize)
        try reader.skip(21)
        let lengthSize = Int(try reader.u8() & 0x03) + 1
        guard lengthSize != 3 else {
            throw .invalid(context: "hvcC", reason: "NAL length size 3 is not allowed")
        }
        let arrayCount = Int(try reader.u8())
        var parameterSets: [[UInt8]] = []
        var total = 0
        for _ in 0..<arrayCount {
            _ = try reader.u8()  // completeness, reserved, NAL unit type
            let nalCount = UInt64(try reader.u16())
            try limits.checkTable(nalCount, entrySize: 2, available: reader.remaining, context: "hvcC")
            for _ in 0..<nalCount {
                let length = Int(try reader.u16())
                parameterSets.append(try reader.bytes(length))
                total += 1
            }
        }
        return HEVCDecoderConfiguration(record: record, nalLengthSize: lengthSize, parameterSets: parameterSets)
    }
}

extension HEVCDecoderConfiguration {
    /// The HEVC NAL unit type of each parameter set (`(byte0 >> 1) & 0x3F`): 32 VPS, 33 SPS, 34 PPS, 39/40 SEI.
    public var parameterSetTypes: [UInt8] {
        parameterSets.map { $0.isEmpty ? 0xFF : ($0[0] >> 1) & 0x3F }
    }
}
