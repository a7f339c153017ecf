/// Places an ICC profile in a JPEG as one APP2 `ICC_PROFILE` segment (ICC.1:2022, annex B.4).
enum JPEGICCSegment {
    /// The segment's signature: "ICC_PROFILE\0".
    static let signature: [UInt8] = Array("ICC_PROFILE".utf8) + [0]

    /// `jpeg` with `profile` in an APP2 segment (chunk 1 of 1) after the APP0 and APP1 segments
    /// that follow SOI (where cameras put it: after Exif); every other byte is kept.
    static func inserting(_ profile: [UInt8], into jpeg: [UInt8]) throws(MediaError) -> [UInt8] {
        let body = signature + [1, 1] + profile
        guard body.count <= JPEGExifSegment.maximumBody else {
            throw .encodeFailed(reason: "an ICC profile of \(profile.count) bytes does not fit one JPEG APP2 segment")
        }
        guard jpeg.count >= 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else {
            throw .encodeFailed(reason: "the encoder's output does not start with SOI")
        }
        var position = 2
        while position + 4 <= jpeg.count, jpeg[position] == 0xFF, jpeg[position + 1] == 0xE0 || jpeg[position + 1] == 0xE1 {
            let length = Int(jpeg[position + 2]) << 8 | Int(jpeg[position + 3])
            guard length >= 2, position + 2 + length <= jpeg.count else { break }
            position += 2 + length
        }
        let segmentLength = body.count + 2
        return Array(jpeg[..<position]) + [0xFF, 0xE2, UInt8(segmentLength >> 8), UInt8(segmentLength & 0xFF)] + body
            + jpeg[position...]
    }
}
