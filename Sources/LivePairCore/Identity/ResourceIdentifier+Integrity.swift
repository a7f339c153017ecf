import LivePairFormats

/// The integrity checks cheap enough for every upload (a few kilobytes read, tables already
/// parsed): metadata-only reading would otherwise accept a file whose media data is cut off or
/// whose index points elsewhere. Each failure is an `IdentityIssue` with its own code, reported
/// by validation and ingestion under its own finding code (`DamageFindings`).
extension ResourceIdentifier {
    /// How far before the end of its image data a JPEG's EOI marker may be (trailing padding,
    /// Samsung's SEF header before an embedded video).
    static let endOfImageWindow = 64 << 10

    /// A JPEG's scan must end with the EOI marker (`FF D9`) in the last `endOfImageWindow` bytes
    /// before the end of the file, or before a motion photo's embedded video. Entropy-coded data
    /// never holds `FF D9`, so a cut-off scan has none there.
    func checkEndOfImage(_ source: any ByteSource, scanStart: UInt64?, into identity: inout ResourceIdentity) {
        guard let scanStart else { return }
        let end = min(identity.motionPhoto?.videoOffset ?? source.size, source.size)
        guard end > scanStart else { return }
        // Nearly every JPEG ends with its EOI: one small read decides; the full window only otherwise.
        for window in [4 << 10, Self.endOfImageWindow] {
            let start = max(scanStart, end >= UInt64(window) ? end - UInt64(window) : 0)
            guard let tail = try? source.read(at: start, count: Int(end - start)) else { return }
            var index = tail.count - 1
            while index > 0 {
                if tail[index - 1] == 0xFF && tail[index] == 0xD9 { return }
                index -= 1
            }
            if start == scanStart { break }
        }
        identity.issues.append(
            IdentityIssue(
                code: IdentityIssue.truncatedImageDataCode,
                message: "JPEG: the image data has no end marker (EOI) in its last \(Self.endOfImageWindow >> 10) KiB "
                    + "(ending at byte \(end)); it is cut off or followed by other data"))
    }

    /// A movie must have a video track, and every track's sample tables must agree with each other
    /// and stay inside the file: each chunk's samples (`stsc`) exist in `stsz`, every chunk ends
    /// before the end of the file, and the chunks hold exactly `stsz`'s sample count.
    func checkMovieIntegrity(_ movie: QuickTimeMovie, fileSize: UInt64, into identity: inout ResourceIdentity) {
        if movie.videoTrack == nil {
            let handlers = movie.tracks.map { "\($0.handlerType)" }.joined(separator: ", ")
            identity.issues.append(
                IdentityIssue(
                    code: IdentityIssue.missingVideoTrackCode,
                    message: "movie: no video track (track handlers: \(handlers.isEmpty ? "none" : handlers))"))
        }
        // Whatever follows the movie's boxes must be boxes too: a box type of non-printable bytes
        // is data that is not part of the movie (a file grown with zeros, another file appended).
        if let stray = movie.topLevelBoxes.first(where: { !$0.type.bytes.allSatisfy { (0x20...0x7E).contains($0) } }) {
            identity.issues.append(
                IdentityIssue(
                    code: "invalid-structure",
                    message: "movie: the \(fileSize - stray.fileOffset) bytes from offset \(stray.fileOffset) are not a box "
                        + "(type bytes \(stray.type.bytes.map { String($0, radix: 16) }.joined(separator: " ")))"))
        }
        for (index, track) in movie.tracks.enumerated() {
            if let problem = Self.sampleTableProblem(track.samples, fileSize: fileSize) {
                identity.issues.append(
                    IdentityIssue(
                        code: IdentityIssue.sampleTableOutOfFileCode,
                        message: "movie: track \(index + 1) (\(track.handlerType)): \(problem)"))
            }
        }
    }

    /// What is wrong with `table` for a file of `fileSize` bytes, or nil.
    static func sampleTableProblem(_ table: SampleTable, fileSize: UInt64) -> String? {
        let sampleCount = UInt64(table.sampleCount)
        let chunkCount = table.chunkOffsets.count
        if chunkCount == 0 { return sampleCount == 0 ? nil : "\(sampleCount) samples but no chunk offsets" }
        guard let first = table.sampleToChunk.first, first.firstChunk == 1 else {
            return "the sample-to-chunk table (stsc) does not start at chunk 1"
        }
        var sample: UInt64 = 0
        var entry = 0
        for chunk in 0..<chunkCount {
            while entry + 1 < table.sampleToChunk.count, UInt64(table.sampleToChunk[entry + 1].firstChunk) <= UInt64(chunk + 1) {
                entry += 1
            }
            let perChunk = UInt64(table.sampleToChunk[entry].samplesPerChunk)
            guard perChunk <= sampleCount - sample else {
                return "chunk \(chunk + 1) claims \(perChunk) samples (stsc) but only \(sampleCount - sample) of the "
                    + "\(sampleCount) samples (stsz) are left"
            }
            var size: UInt64 = 0
            if table.constantSampleSize != 0 {
                size = perChunk * UInt64(table.constantSampleSize)
            } else {
                for index in Int(sample)..<Int(sample + perChunk) { size += UInt64(table.sampleSizes[index]) }
            }
            let offset = table.chunkOffsets[chunk]
            guard offset <= fileSize, size <= fileSize - offset else {
                return "chunk \(chunk + 1) (offset \(offset), \(size) bytes) ends past the end of the file (\(fileSize) bytes)"
            }
            sample += perChunk
        }
        guard sample == sampleCount else {
            return "the chunks hold \(sample) samples but the sample size table (stsz) lists \(sampleCount)"
        }
        return nil
    }
}
