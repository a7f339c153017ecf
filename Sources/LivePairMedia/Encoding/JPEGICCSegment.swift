/// Places an ICC profile in a JPEG as APP2 `ICC_PROFILE` segments (ICC.1:2022, annex B.4): one
/// segment when the profile fits, else chunks numbered from 1 (at most 255).
enum JPEGICCSegment {
    /// The segment's signature: "ICC_PROFILE\0".
    static let signature: [UInt8] = Array("ICC_PROFILE".utf8) + [0]
    /// Most profile bytes one segment holds: the body less the signature and the two chunk bytes.
    static let maximumChunk = JPEGExifSegment.maximumBody - signature.count - 2

    /// `jpeg` with `profile` in APP2 segments after the APP0 and APP1 segments that follow SOI
    /// (where cameras put it: after Exif); every other byte is kept.
    static func inserting(_ profile: [UInt8], into jpeg: [UInt8]) throws(MediaError) -> [UInt8] {
        let chunks = stride(from: 0, to: max(profile.count, 1), by: maximumChunk).map {
            profile[$0..<min($0 + maximumChunk, profile.count)]
        }
        guard chunks.count <= 255 else {
            throw .encodeFailed(reason: "an ICC profile of \(profile.count) bytes does not fit 255 JPEG APP2 segments")
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
        var segments: [UInt8] = []
        for (index, chunk) in chunks.enumerated() {
            let segmentLength = signature.count + 2 + chunk.count + 2
            segments += [0xFF, 0xE2, UInt8(segmentLength >> 8), UInt8(segmentLength & 0xFF)]
            segments += signature + [UInt8(index + 1), UInt8(chunks.count)] + chunk
        }
        return Array(jpeg[..<position]) + segments + jpeg[position...]
    }
}
