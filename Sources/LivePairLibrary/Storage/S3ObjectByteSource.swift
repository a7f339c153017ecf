import LivePairFormats
import LivePairS3
import Synchronization

/// Random access to an S3 object through ranged GETs. Parsers make many small reads close
/// together (box headers, then `moov`), so each GET fetches at least a 256 KiB window (ending at
/// the object's end when it would pass it) and the last window is kept: nearby reads cost no request.
final class S3ObjectByteSource: ByteSource {
    let size: UInt64
    let name: String
    private let client: S3Client
    private let bucket: String
    private let key: String
    private let window = Mutex<(offset: UInt64, bytes: [UInt8])>((0, []))
    /// The least a GET fetches.
    static let windowSize = 256 * 1024

    init(client: S3Client, bucket: String, key: String, size: UInt64) {
        self.client = client
        self.bucket = bucket
        self.key = key
        self.size = size
        name = "s3://\(bucket)/\(key)"
    }

    func read(at offset: UInt64, count: Int) throws(FormatError) -> [UInt8] {
        guard count > 0, offset < size else { return [] }
        let wanted = Int(min(UInt64(count), size - offset))
        if let cached = window.withLock({ Self.slice($0, offset: offset, count: wanted) }) { return cached }
        let fetchCount = UInt64(max(wanted, Self.windowSize))
        // A window that would pass the end ends at the end instead: a read near the end (a
        // trailer, or `moov` after `mdat`) and the reads before it that it leads to share one GET.
        let start = offset + fetchCount > size ? size - min(size, fetchCount) : offset
        let end = min(size, start + fetchCount) - 1
        let bytes: [UInt8]
        do throws(S3Error) {
            bytes = try client.get(bucket: bucket, key: key, range: start...end)
        } catch {
            throw .io(path: name, reason: error.description)
        }
        window.withLock { $0 = (start, bytes) }
        // Fewer bytes than asked only when the object is shorter than its size said.
        let from = Int(min(UInt64(bytes.count), offset - start))
        return Array(bytes[from..<min(bytes.count, from + wanted)])
    }

    /// The bytes at `offset` when the window holds all `count` of them.
    private static func slice(_ window: (offset: UInt64, bytes: [UInt8]), offset: UInt64, count: Int) -> [UInt8]? {
        guard offset >= window.offset, offset + UInt64(count) <= window.offset + UInt64(window.bytes.count) else { return nil }
        let start = Int(offset - window.offset)
        return Array(window.bytes[start..<start + count])
    }
}
