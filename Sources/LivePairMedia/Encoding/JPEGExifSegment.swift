/// Places an Exif APP1 segment in a JPEG that turbojpeg produced.
enum JPEGExifSegment {
    /// Largest APP1 body: a segment length is 16 bits and counts its own two bytes.
    static let maximumBody = 0xFFFF - 2

    /// `jpeg` with an APP1 `Exif\0\0` segment holding `exif` right after SOI. A JFIF APP0 segment
    /// directly after SOI (turbojpeg writes one) is removed, as Exif files are not JFIF files and
    /// cameras write Exif first; every other byte is kept.
    static func inserting(_ exif: ExifTIFFPayload, into jpeg: [UInt8]) throws(MediaError) -> [UInt8] {
        let body = exif.signedBytes
        guard body.count <= maximumBody else {
            throw .encodeFailed(reason: "Exif of \(exif.tiff.count) bytes does not fit one JPEG APP1 segment")
        }
        guard jpeg.count >= 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else {
            throw .encodeFailed(reason: "the encoder's output does not start with SOI")
        }
        var rest = 2
        if jpeg.count >= 11, jpeg[2] == 0xFF, jpeg[3] == 0xE0,
            Array(jpeg[6..<11]) == [0x4A, 0x46, 0x49, 0x46, 0x00]  // "JFIF\0"
        {
            let length = Int(jpeg[4]) << 8 | Int(jpeg[5])
            if length >= 2, 4 + length <= jpeg.count { rest = 4 + length }
        }
        let segmentLength = body.count + 2
        var output: [UInt8] = []
        output.reserveCapacity(jpeg.count + segmentLength + 2)
        output += [0xFF, 0xD8, 0xFF, 0xE1, UInt8(segmentLength >> 8), UInt8(segmentLength & 0xFF)]
        output += body
        output += jpeg[rest...]
        return output
    }
}
