internal import CFFmpeg

/// What a picture's numbers mean as colour: the ITU-T H.273 code points a video stream declares
/// and a HEIC `colr` box of type `nclx` stores.
///
/// FFmpeg's `AVColorPrimaries`, `AVColorTransferCharacteristic` and `AVColorSpace` values are
/// these code points, so a decoded frame's description is copied as it is.
public struct ColourDescription: Sendable, Equatable {
    /// `colour_primaries`: 1 BT.709 (sRGB's), 9 BT.2020, 12 SMPTE EG 432-1 (Display P3), 2 unspecified.
    public let colourPrimaries: UInt16
    /// `transfer_characteristics`: 1 BT.709, 13 sRGB, 16 PQ, 18 HLG, 2 unspecified.
    public let transferCharacteristics: UInt16
    /// `matrix_coefficients` from R'G'B' to Y'CbCr: 1 BT.709, 5 and 6 BT.601, 9 BT.2020, 2 unspecified.
    public let matrixCoefficients: UInt16
    /// True when Y'CbCr uses the full 0-255 range (8 bits), false for limited (16-235).
    public let fullRange: Bool

    /// H.273's "unspecified" code point.
    public static let unspecified: UInt16 = 2
    /// H.273 `colour_primaries` 1: BT.709 (the primaries of sRGB).
    public static let bt709Primaries: UInt16 = 1
    /// H.273 `colour_primaries` 12: SMPTE EG 432-1, Display P3 (P3 primaries, D65 white).
    public static let displayP3Primaries: UInt16 = 12

    /// A description of the given code points.
    public init(colourPrimaries: UInt16, transferCharacteristics: UInt16, matrixCoefficients: UInt16, fullRange: Bool) {
        self.colourPrimaries = colourPrimaries
        self.transferCharacteristics = transferCharacteristics
        self.matrixCoefficients = matrixCoefficients
        self.fullRange = fullRange
    }

    /// The description a decoded frame carries (from its bitstream or its container's `colr`),
    /// or nil when it does not say which primaries it uses.
    init?(frame: UnsafePointer<AVFrame>) {
        let primaries = UInt16(clamping: Int(frame.pointee.color_primaries.rawValue))
        guard primaries != Self.unspecified, primaries != 0 else { return nil }
        self.init(
            colourPrimaries: primaries,
            transferCharacteristics: UInt16(clamping: Int(frame.pointee.color_trc.rawValue)),
            matrixCoefficients: UInt16(clamping: Int(frame.pointee.colorspace.rawValue)),
            fullRange: frame.pointee.color_range == AVCOL_RANGE_JPEG)
    }

    /// The description of an 8-bit full-range still encoded from RGB pixels decoded from a
    /// picture described by `self`: the same primaries and transfer (the pixels are still in
    /// that colour space), this picture's matrix when the HEIC encoder converts with it (BT.709,
    /// BT.601), else BT.601, and full range (the still is coded full range).
    public var forFullRangeStill: ColourDescription {
        let encodableMatrices: Set<UInt16> = [1, 5, 6]
        return ColourDescription(
            colourPrimaries: colourPrimaries,
            transferCharacteristics: transferCharacteristics == 0 ? Self.unspecified : transferCharacteristics,
            matrixCoefficients: encodableMatrices.contains(matrixCoefficients) ? matrixCoefficients : 6,
            fullRange: true)
    }
}
