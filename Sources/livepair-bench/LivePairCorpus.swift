import Foundation
import LivePair
import LivePairFormats

/// A corpus of distinct assets made from the samples: each copy of a Live Photo gets a fresh
/// identifier (patched in place in both halves: same length, so nothing else moves), its halves
/// are renamed the ways vendors name them and put in different nested folders; every other file
/// is made unique too (a JPEG comment segment after SOI, or a `free` box or bytes at the end), so
/// that no two files are byte-identical and pairing does the work real libraries need.
struct LivePairCorpus {
    /// The root directory.
    let directory: URL
    /// Every file, in a shuffled order.
    let files: [String]
    /// How many complete Live Photo pairs were written.
    let pairCount: Int
    /// Whether the directory is removed when done.
    let isTemporary: Bool

    /// A sample file and what it is.
    private struct Template {
        let path: String
        let identity: ResourceIdentity
        let bytes: [UInt8]
    }

    /// Writes about `count` files made from the media under `samples`. With `sparse`, each file
    /// keeps only the pages identification reads (recorded by identifying the copy in memory) and
    /// is a hole elsewhere: LivePair reads exactly the same bytes as from a full copy, while 20,000
    /// files fit in memory and on disk.
    ///
    /// With `livePhotosOnly`, every file is a half of a distinct Live Photo (`count / 2` pairs,
    /// each with its own identifier) and nothing else is written.
    static func make(
        from samples: String, count: Int, into work: String?, sparse: Bool = false, livePhotosOnly: Bool = false
    ) throws -> LivePairCorpus {
        let sampleFiles = try BenchmarkCorpus.sampleFiles(under: samples)
        let identifier = ResourceIdentifier()
        let templates = try sampleFiles.map { path in
            Template(path: path, identity: identifier.identify(path: path), bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        }
        // Live Photo pairs: a still and a movie with one identifier; everything else is single.
        var byIdentifier: [String: [Template]] = [:]
        for template in templates {
            if let id = template.identity.contentIdentifier?.rawValue { byIdentifier[id, default: []].append(template) }
        }
        var pairs: [(photo: Template, video: Template)] = []
        var paired: Set<String> = []
        for (_, group) in byIdentifier.sorted(by: { $0.key < $1.key }) {
            if let photo = group.first(where: { $0.identity.role == .livePhotoStill }),
                let video = group.first(where: { $0.identity.role == .livePhotoVideo })
            {
                pairs.append((photo, video))
                paired.insert(photo.path)
                paired.insert(video.path)
            }
        }
        let singles = templates.filter { !paired.contains($0.path) }

        let directory = URL(fileURLWithPath: work ?? NSTemporaryDirectory() + "livepair-corpus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var files: [String] = []
        var pairCount = 0
        var serial = 0
        var generator = SplitMix64(seed: 0x5EED)
        while files.count < count {
            serial += 1
            let unitIndex = serial % (livePhotosOnly ? pairs.count : pairs.count + singles.count)
            if livePhotosOnly && files.count + 2 > count { break }
            if unitIndex < pairs.count, files.count + 2 <= count {
                let (photo, video) = pairs[unitIndex]
                let fresh = UUID(generator: &generator)
                let names = Self.vendorNames(serial: serial, identifier: fresh, photo: photo.path, video: video.path)
                let photoPath = try write(
                    patched(photo, identifier: fresh), to: directory, folder: "photos/\(serial % 13)/\(serial % 5)", name: names.photo,
                    sparse: sparse)
                let videoPath = try write(
                    patched(video, identifier: fresh), to: directory, folder: "videos/\(serial * 7 % 11)", name: names.video,
                    sparse: sparse)
                files += [photoPath, videoPath]
                pairCount += 1
            } else {
                let template = singles[(unitIndex - pairs.count + singles.count) % singles.count]
                var bytes = template.identity.contentIdentifier != nil
                    ? patched(template, identifier: UUID(generator: &generator)) : template.bytes
                bytes = Self.madeUnique(bytes, format: template.identity.format, serial: serial)
                let name = "\(serial)-" + (template.path as NSString).lastPathComponent
                files.append(try write(bytes, to: directory, folder: "other/\(serial % 17)", name: name, sparse: sparse))
            }
        }
        generator.shuffle(&files)
        try BenchmarkCorpus.warmPageCache(files)
        return LivePairCorpus(directory: directory, files: files, pairCount: pairCount, isTemporary: work == nil)
    }

    /// Names as cameras, Photos libraries, iCloud downloads and Google Takeout write them, in turn.
    private static func vendorNames(serial: Int, identifier: UUID, photo: String, video: String) -> (photo: String, video: String) {
        let photoExtension = (photo as NSString).pathExtension
        let videoExtension = (video as NSString).pathExtension
        switch serial % 4 {
        case 0: return ("IMG_\(serial).\(photoExtension)", "IMG_\(serial).\(videoExtension)")
        case 1: return ("IMG_\(serial).\(photoExtension)", "IMG_\(serial)_HEVC.MOV")
        case 2: return ("\(identifier.uuidString).\(photoExtension.lowercased())", "\(identifier.uuidString)_3.mov")
        default: return ("IMG_\(serial)(1).\(photoExtension)", "IMG_\(serial).MP4")
        }
    }

    /// The template's bytes with every occurrence of its identifier replaced by `identifier`.
    private static func patched(_ template: Template, identifier: UUID) -> [UInt8] {
        guard let old = template.identity.contentIdentifier?.rawValue else { return template.bytes }
        let oldBytes = Array(old.utf8), newBytes = Array(identifier.uuidString.utf8)
        guard oldBytes.count == newBytes.count else { return template.bytes }
        var bytes = template.bytes
        for index in ByteSearch.indices(of: oldBytes, in: bytes[...]) {
            bytes.replaceSubrange(index..<index + newBytes.count, with: newBytes)
        }
        return bytes
    }

    /// `bytes` changed harmlessly so that no other copy has the same bytes.
    private static func madeUnique(_ bytes: [UInt8], format: FileFormat, serial: Int) -> [UInt8] {
        let tag = Array("livepair-bench \(serial)".utf8)
        switch format {
        case .jpeg where bytes.count > 2:
            // A COM segment right after SOI: offsets inside Exif are relative to its TIFF header,
            // and motion-photo offsets count from the end, so nothing breaks.
            let length = UInt16(tag.count + 2)
            return [0xFF, 0xD8, 0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)] + tag + bytes[2...]
        case .heic, .quickTime, .mp4, .avif:
            let size = UInt32(8 + tag.count)
            return bytes + [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
                + Array("free".utf8) + tag
        default:
            return bytes + tag
        }
    }

    private static func write(_ bytes: [UInt8], to directory: URL, folder: String, name: String, sparse: Bool) throws -> String {
        let folderURL = directory.appendingPathComponent(folder)
        try FileManager.default.createDirectory(at: folderURL, withIntermediateDirectories: true)
        let url = folderURL.appendingPathComponent(name)
        guard sparse else {
            try Data(bytes).write(to: url)
            return url.path
        }
        let recorder = RecordingByteSource(MemoryByteSource(bytes, name: url.path))
        _ = ResourceIdentifier().identify(source: recorder, path: url.path)
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw BenchmarkOptions.Invalid(description: "cannot create \(url.path)")
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        for page in recorder.pages() {
            try handle.seek(toOffset: page.lowerBound)
            try handle.write(contentsOf: bytes[Int(page.lowerBound)..<Int(page.upperBound)])
        }
        try handle.truncate(atOffset: UInt64(bytes.count))
        return url.path
    }

    /// Removes the directory when it was temporary.
    func cleanUp() {
        if isTemporary { try? FileManager.default.removeItem(at: directory) }
    }

    /// Total size in bytes.
    var totalBytes: UInt64 {
        files.reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: $1)[.size] as? UInt64) ?? 0) }
    }
}

/// A small deterministic generator (SplitMix64), so every run builds the same corpus.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func shuffle(_ files: inout [String]) { files.shuffle(using: &self) }
}

extension UUID {
    /// A version-4 UUID from `generator`.
    init(generator: inout SplitMix64) {
        var bytes = (0..<16).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        self.init(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
