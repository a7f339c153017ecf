import LivePairFormats

/// The ICC profile that says what a HEIC or JPEG still's RGB means, for an image decoded from it
/// and encoded again as JPEG (`StillImageEncoder.jpeg(_:iccProfile:)`) to mean the same colours:
/// a Display P3 iPhone still stays Display P3 instead of being read as sRGB.
///
/// - HEIC: the primary image's `colr` box: an ICC profile (`prof`, `rICC`) as it is; else coded
///   code points (`nclx`) as the display profile `ICCDisplayProfile` builds for them (none for
///   primaries or transfers it cannot state, such as unspecified ones).
/// - JPEG: its APP2 `ICC_PROFILE` chunks put back together in their order (none when a chunk
///   is missing, repeated or out of range).
public enum StillColourProfile {
    /// The profile of the still at `path`; nil when it declares none, is neither HEIC nor JPEG,
    /// or cannot be read (its pixels are then sRGB to every reader, and the copy says so too).
    public static func iccProfile(ofStillAt path: String, limits: ParseLimits = .default) -> [UInt8]? {
        do throws(FormatError) {
            let source = try FileByteSource(path: path)
            let head = try source.read(at: 0, count: 12)
            if JPEGSegmentReader.isJPEG(head) {
                return try jpegProfile(try JPEGSegmentReader(limits: limits).read(source), from: source, limits: limits)
            }
            guard head.count == 12, Array(head[4..<8]) == Array("ftyp".utf8) else { return nil }
            return heicProfile(try HEIFFile(source: source, limits: limits))
        } catch {
            return nil
        }
    }

    /// The primary image's ICC profile, or the profile of its `nclx` code points.
    static func heicProfile(_ file: HEIFFile) -> [UInt8]? {
        guard let primary = file.meta.primaryItemID else { return nil }
        let colours: [HEIFColourInformation] = file.meta.properties(of: primary).compactMap {
            if case let .colour(information) = $0 { return information }
            return nil
        }
        for case let .icc(_, profile) in colours where !profile.isEmpty { return profile }
        for case let .nclx(primaries, transfer, matrix, fullRange) in colours {
            return ICCDisplayProfile.profile(for: ColourDescription(
                colourPrimaries: primaries, transferCharacteristics: transfer, matrixCoefficients: matrix, fullRange: fullRange))
        }
        return nil
    }

    /// The profile in the JPEG's APP2 `ICC_PROFILE` segments (ICC.1:2022, annex B.4).
    static func jpegProfile(_ structure: JPEGStructure, from source: any ByteSource, limits: ParseLimits) throws(FormatError)
        -> [UInt8]?
    {
        let signature = Array("ICC_PROFILE".utf8) + [0]
        var chunks: [Int: [UInt8]] = [:], declaredCount: Int?, total = 0
        for segment in structure.segments where segment.marker == 0xE2 && segment.payloadLength > signature.count + 2 {
            total += segment.payloadLength
            guard total <= limits.maximumMetadataBytes else { return nil }
            let payload = try source.readExactly(
                at: segment.payloadFileOffset, count: segment.payloadLength, context: "JPEG APP2")
            guard payload.starts(with: signature) else { continue }
            let number = Int(payload[signature.count]), count = Int(payload[signature.count + 1])
            guard number >= 1, number <= count, declaredCount == nil || declaredCount == count, chunks[number] == nil else {
                return nil
            }
            declaredCount = count
            chunks[number] = Array(payload[(signature.count + 2)...])
        }
        guard let declaredCount, chunks.count == declaredCount else { return nil }
        return (1...declaredCount).flatMap { chunks[$0] ?? [] }
    }
}
