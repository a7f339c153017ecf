/// Finds the video embedded in a motion photo (JPEG or HEIC).
///
/// Order of evidence: a HEIC top-level `mpvd` box (trusted over XMP lengths, which are wrong in
/// Samsung HEIC files); the XMP Container directory (video start = file size minus the lengths of
/// the items from the video item to the end); the legacy MicroVideoOffset (bytes from the end);
/// the Samsung SEF MotionPhoto_Data entry; and, when something claims a video but none of those
/// places holds one, a bounded backwards scan of the end of the file for an `ftyp` box with an
/// MP4/QuickTime brand. Every candidate is checked for `ftyp` at offset + 4.
public struct MotionPhotoLocator: Sendable {
    /// Brands accepted by the `ftyp` scan.
    public static let videoBrands: Set<FourCC> = [
        "isom", "iso2", "iso3", "iso4", "iso5", "iso6", "iso7", "iso8", "iso9", "mp41", "mp42", "mp71", "avc1",
        "qt  ", "3gp4", "3gp5", "3gp6", "3g2a", "M4V ", "MSNV", "dash", "hvc1",
    ]
    /// Most bytes at the end of the file searched by the `ftyp` scan.
    public static let scanWindow: UInt64 = 32 << 20
    private static let scanChunk = 1 << 20

    /// The limits applied.
    public let limits: ParseLimits
    /// Whether to run the `ftyp` scan even when nothing claims a video (costly: reads the file's tail).
    public let scansUnclaimedFiles: Bool

    /// A locator applying `limits`.
    public init(limits: ParseLimits = .default, scansUnclaimedFiles: Bool = false) {
        self.limits = limits
        self.scansUnclaimedFiles = scansUnclaimedFiles
    }

    /// Looks for the embedded video of `source`, using its parsed `xmp` and, for HEIC files, the
    /// top-level boxes listed by `TopLevelBoxScanner`.
    public func locate(
        in source: any ByteSource, xmp: MotionPhotoXMP?, topLevelBoxes: [TopLevelBox]? = nil
    ) throws(FormatError) -> MotionPhotoLookup {
        let size = source.size
        var notes: [String] = []
        let timestamp = xmp?.presentationTimestampUs
        let boxes = topLevelBoxes ?? []
        var sef: SamsungSEFTrailer?
        do {
            sef = try SamsungSEFTrailer.read(source, limits: limits)
        } catch {
            notes.append("SEF trailer: \(error.description)")
        }
        var samsungEvidence = sef != nil || boxes.contains { $0.type == "sefd" }

        func found(
            _ offset: UInt64, _ length: UInt64, _ method: MotionPhotoLocationMethod, verified: Bool = true
        ) -> MotionPhotoLookup {
            .video(
                EmbeddedMotionVideo(
                    vendor: samsungEvidence ? .samsung : .google, fileOffset: offset, length: length,
                    presentationTimestampUs: timestamp, method: method, ftypVerified: verified, warnings: notes,
                    stillImageTime: xmp.flatMap(LivePairStillImageTime.init)))
        }

        // 1. HEIC mpvd box.
        var unverifiedMPVD: (start: UInt64, end: UInt64)?
        if let mpvd = boxes.first(where: { $0.type == "mpvd" }) {
            if mpvd.isTruncated {
                notes.append("mpvd box at \(mpvd.fileOffset) runs past the end of the file")
            } else {
                let start = mpvd.payloadFileOffset
                let content = try videoContent(inMPVD: mpvd, source: source)
                if content.hasSEFD { samsungEvidence = true }
                if try hasFTYP(source, at: start) {
                    return found(start, content.end - start, .mpvdBox)
                }
                notes.append("mpvd box at \(mpvd.fileOffset) does not start with ftyp")
                if content.startsWithMovieBox { unverifiedMPVD = (start, content.end) }
            }
        }

        // 2. Container directory.
        if let xmp, let index = xmp.motionPhotoItemIndex {
            let items = xmp.containerItems[index...]
            let videoLength = items.first?.length ?? 0
            if videoLength > 0 {
                let total = items.reduce(Int64(0)) { $0 &+ max($1.length ?? 0, 0) }
                let padded = items.reduce(Int64(0)) { $0 &+ max($1.length ?? 0, 0) &+ max($1.padding ?? 0, 0) }
                for candidate in [total, padded] where candidate > 0 && UInt64(candidate) <= size {
                    let start = size - UInt64(candidate)
                    if try hasFTYP(source, at: start) {
                        let end = min(start + UInt64(videoLength), Self.videoEnd(from: start, sef: sef, fileSize: size))
                        // A start inside the SEF trailer would give a video that ends before it starts.
                        guard end > start else { continue }
                        return found(start, end - start, .containerDirectory)
                    }
                }
                notes.append("Container directory puts the video at \(Int64(size) &- total), where there is no ftyp")
            } else {
                notes.append("Container directory video item has no length")
            }
        }

        // 3. Legacy MicroVideoOffset.
        if let xmp, xmp.microVideo == 1 || xmp.microVideoOffset != nil, let offset = xmp.microVideoOffset {
            if offset > 0, UInt64(offset) <= size {
                let start = size - UInt64(offset)
                if try hasFTYP(source, at: start) { return found(start, UInt64(offset), .microVideoOffset) }
                notes.append("MicroVideoOffset \(offset) points to offset \(start), where there is no ftyp")
            } else {
                notes.append("MicroVideoOffset \(offset) does not fit the file (\(size) bytes)")
            }
        }

        // 4. Samsung SEF MotionPhoto_Data.
        let sefEntry = sef?.motionPhotoData
        if let sefEntry, sefEntry.dataLength > 16 {
            if try hasFTYP(source, at: sefEntry.dataFileOffset) {
                return found(sefEntry.dataFileOffset, sefEntry.dataLength, .sefTrailer)
            }
            notes.append("SEF MotionPhoto_Data at \(sefEntry.dataFileOffset) does not start with ftyp")
        }

        // 5. Backwards ftyp scan.
        let claimed = (xmp?.claimsMotionPhoto ?? false) || sefEntry != nil || boxes.contains { $0.type == "mpvd" }
        guard claimed || scansUnclaimedFiles else { return .notMotionPhoto }
        if let start = try scanForFTYP(source, end: sef?.directoryFileOffset ?? size) {
            notes.append("video found by scanning for ftyp at \(start)")
            return found(start, Self.videoEnd(from: start, sef: sef, fileSize: size) - start, .ftypScan)
        }
        if let unverifiedMPVD {
            notes.append("using the mpvd payload without an ftyp box")
            return found(unverifiedMPVD.start, unverifiedMPVD.end - unverifiedMPVD.start, .mpvdBox, verified: false)
        }
        guard claimed else { return .notMotionPhoto }
        notes.append("no ftyp box in the last \(min(size, Self.scanWindow)) bytes")
        return .claimedButMissing(reasons: notes)
    }

    /// Where a video starting at `start` must end: the end of the SEF data block holding it, else
    /// the start of the SEF data after it, else the end of the file.
    static func videoEnd(from start: UInt64, sef: SamsungSEFTrailer?, fileSize: UInt64) -> UInt64 {
        guard let sef else { return fileSize }
        if let holder = sef.entries.first(where: { start >= $0.dataFileOffset && start - $0.dataFileOffset < $0.dataLength }) {
            return holder.dataFileOffset + holder.dataLength
        }
        let following = sef.entries.map(\.blockFileOffset).filter { $0 > start }.min()
        return min(following ?? sef.directoryFileOffset, sef.directoryFileOffset)
    }

    /// The end of the video inside `mpvd` (the start of a `sefd` child, else the end of the box),
    /// whether a `sefd` child was seen, and whether the payload starts with a QuickTime box
    /// (`wide`, `free`, `skip`, `mdat`, `moov`) that a movie without `ftyp` may start with.
    private func videoContent(
        inMPVD mpvd: TopLevelBox, source: any ByteSource
    ) throws(FormatError) -> (end: UInt64, hasSEFD: Bool, startsWithMovieBox: Bool) {
        let movieStarts: Set<FourCC> = ["wide", "free", "skip", "mdat", "moov"]
        let end = mpvd.fileOffset + mpvd.size
        var offset = mpvd.payloadFileOffset
        var count = 0
        var startsWithMovieBox = false
        while end - offset >= 8, count < limits.maximumBoxCount {
            var reader = try source.reader(at: offset, count: Int(min(16, end - offset)), context: "mpvd child")
            let size32 = try reader.u32()
            let type = try reader.fourCC()
            var size = UInt64(size32)
            if size32 == 1 {
                guard reader.remaining >= 8 else { break }
                size = try reader.u64()
            } else if size32 == 0 {
                size = end - offset
            }
            if type == "sefd" { return (offset, true, startsWithMovieBox) }
            guard size >= 8, size <= end - offset else { break }
            if count == 0 { startsWithMovieBox = movieStarts.contains(type) }
            offset += size
            count += 1
        }
        return (end, false, startsWithMovieBox)
    }

    /// Whether the four bytes at `offset + 4` are `ftyp`.
    private func hasFTYP(_ source: any ByteSource, at offset: UInt64) throws(FormatError) -> Bool {
        guard offset < source.size, source.size - offset >= 12 else { return false }
        let head = try source.read(at: offset, count: 8)
        return head.count == 8 && head[4] == 0x66 && head[5] == 0x74 && head[6] == 0x79 && head[7] == 0x70
    }

    /// Scans backwards from `end` over at most `scanWindow` bytes for `size 'ftyp' brand` with a
    /// plausible size and a video brand; returns the box's file offset.
    private func scanForFTYP(_ source: any ByteSource, end: UInt64) throws(FormatError) -> UInt64? {
        let lowest = end > Self.scanWindow ? end - Self.scanWindow : 0
        var chunkEnd = end
        while chunkEnd > lowest {
            let chunkStart = max(lowest, chunkEnd >= UInt64(Self.scanChunk) ? chunkEnd - UInt64(Self.scanChunk) : 0)
            let readEnd = min(end, chunkEnd + 12)
            let bytes = try source.read(at: chunkStart, count: Int(readEnd - chunkStart))
            // Candidates are where "ftyp" starts, 4 bytes into a box; the last valid one wins.
            let candidates = bytes.count >= 12 ? ByteSearch.indices(of: Array("ftyp".utf8), in: bytes[4..<bytes.count - 4]) : []
            for typeIndex in candidates.reversed() {
                let index = typeIndex - 4
                let boxSize =
                    UInt32(bytes[index]) << 24 | UInt32(bytes[index + 1]) << 16 | UInt32(bytes[index + 2]) << 8
                    | UInt32(bytes[index + 3])
                let brand = FourCC(
                    rawValue: UInt32(bytes[index + 8]) << 24 | UInt32(bytes[index + 9]) << 16
                        | UInt32(bytes[index + 10]) << 8 | UInt32(bytes[index + 11]))
                let offset = chunkStart + UInt64(index)
                if boxSize >= 16, boxSize <= 1024, boxSize % 4 == 0, Self.videoBrands.contains(brand) {
                    return offset
                }
            }
            chunkEnd = chunkStart
        }
        return nil
    }
}
