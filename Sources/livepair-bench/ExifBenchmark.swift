import Foundation
import LivePair
import LivePairFormats
import LibExifReference
import LivePairMedia

/// Reads the Exif blocks of every still sample with LivePair's TIFF reader (what identification
/// does: IFD0, Exif IFD, GPS, IFD1, the Apple maker note) and with libexif, single-threaded both,
/// to decide by measurement whether the fast path should use libexif.
struct ExifBenchmark {
    let options: BenchmarkOptions

    func run() throws -> Int32 {
        var blocks: [[UInt8]] = []
        for path in try BenchmarkCorpus.sampleFiles(under: options.samples) {
            let source = try FileByteSource(path: path)
            let lower = path.lowercased()
            if lower.hasSuffix(".heic"), let exif = try? HEIFFile(source: source).exif(from: source) {
                blocks.append(exif.tiff)
            } else if lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg"), let tiff = try? JPEGSegmentReader().read(source).exifTIFF {
                blocks.append(tiff)
            }
        }
        let iterations = max(1, options.fileCount)
        print("exif: \(blocks.count) Exif blocks from the samples (\(blocks.reduce(0) { $0 + $1.count }) bytes), "
            + "each parsed \(iterations) times, one thread")
        var identifiers = 0
        let ours = ResourceUsage.time {
            for _ in 0..<iterations {
                for block in blocks {
                    if let metadata = try? ExifMetadata.read(tiffBytes: block), metadata.appleMakerNote?.contentIdentifier != nil {
                        identifiers += 1
                    }
                }
            }
        }
        var makes = 0
        let theirs = ResourceUsage.time {
            for _ in 0..<iterations {
                for block in blocks where (try? LibExifReader.read(tiff: block))?.make != nil { makes += 1 }
            }
        }
        let count = Double(iterations * blocks.count)
        print(String(format: "livepair  %8.2f us per block (all IFDs and the Apple maker note; %d identifiers)", ours / count * 1e6, identifiers))
        print(String(format: "libexif   %8.2f us per block (exif_data_new_from_data; %d makes)", theirs / count * 1e6, makes))
        print(String(format: "ratio: libexif takes %.1fx LivePair's time", theirs / ours))
        return 0
    }
}
