/// One marker segment of a JPEG file, located by file offset.
public struct JPEGSegment: Sendable, Equatable {
    /// The marker byte after 0xFF (for example 0xE1 for APP1, 0xC0 for SOF0, 0xDA for SOS).
    public let marker: UInt8
    /// File offset of the 0xFF that starts the marker.
    public let fileOffset: UInt64
    /// The length field (which counts itself but not the marker); 0 for markers without one (SOI, RSTn, EOI).
    public let length: Int

    /// Memberwise initializer.
    public init(marker: UInt8, fileOffset: UInt64, length: Int) {
        self.marker = marker
        self.fileOffset = fileOffset
        self.length = length
    }

    /// File offset of the first payload byte (after the length field).
    public var payloadFileOffset: UInt64 { fileOffset + (length > 0 ? 4 : 2) }
    /// Payload bytes (the length minus its own two bytes).
    public var payloadLength: Int { max(length - 2, 0) }

    /// Whether this is an APPn segment (0xE0-0xEF).
    public var isApplication: Bool { marker >= 0xE0 && marker <= 0xEF }
    /// Whether this is a start-of-frame segment (SOF0-SOF15, excluding DHT, JPG and DAC).
    public var isStartOfFrame: Bool {
        marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }

    /// The bytes of an APP1 segment (marker, length, `signature`, `payload`), for example Exif
    /// or XMP.
    ///
    /// - Throws: `FormatError.limitExceeded` when the payload does not fit one segment's 16-bit
    ///   length; `context` names the segment in the error.
    public static func application1(signature: [UInt8], payload: [UInt8], context: String) throws(FormatError) -> [UInt8] {
        let payloadLength = signature.count + payload.count
        guard payloadLength + 2 <= 0xFFFF else {
            throw .limitExceeded(context: context, limit: "segment length", value: UInt64(payloadLength + 2), maximum: 0xFFFF)
        }
        var writer = ByteWriter(capacity: payloadLength + 4)
        writer.append([0xFF, 0xE1])
        writer.u16(UInt16(payloadLength + 2))
        writer.append(signature)
        writer.append(payload)
        return writer.bytes
    }

    /// Whether `marker` stands alone, without a length field (TEM, RSTn, SOI, EOI).
    public static func isStandalone(_ marker: UInt8) -> Bool {
        marker == 0x01 || (marker >= 0xD0 && marker <= 0xD9)
    }
}
