/// A TIFF structure handed to the still encoders as Exif: checked once, then wrapped the way
/// each container stores it.
struct ExifTIFFPayload {
    /// The `Exif\0\0` signature that precedes the TIFF structure in a JPEG APP1 segment (and, in
    /// camera HEICs, inside the Exif item after its 4-byte header offset).
    static let signature: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]

    /// The TIFF bytes, starting with `II*\0` or `MM\0*`.
    let tiff: [UInt8]

    /// Checks that `tiff` starts with a TIFF header and is long enough to hold one IFD offset.
    init(_ tiff: [UInt8]) throws(MediaError) {
        guard tiff.count >= 8 else {
            throw .encodeFailed(reason: "Exif TIFF structure of \(tiff.count) bytes is shorter than a TIFF header")
        }
        let littleEndian: [UInt8] = [0x49, 0x49, 0x2A, 0x00], bigEndian: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A]
        let head = Array(tiff.prefix(4))
        guard head == littleEndian || head == bigEndian else {
            throw .encodeFailed(reason: "Exif data does not start with a TIFF header (II*\\0 or MM\\0*)")
        }
        self.tiff = tiff
    }

    /// `Exif\0\0` followed by the TIFF structure: the body of a JPEG APP1 segment.
    var signedBytes: [UInt8] { Self.signature + tiff }
}
