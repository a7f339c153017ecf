import LivePairFormats
import LivePairS3
import Synchronization

/// Random access to an S3 object through ranged GETs. Parsers make many small reads close
/// together (box headers, then `moov`), so each GET fetches at least a 256 KiB window and the last
/// window is kept: nearby reads cost no request.
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
        let end = min(size, offset + fetchCount) - 1
        let bytes: [UInt8]
        do throws(S3Error) {
            bytes = try client.get(bucket: bucket, key: key, range: offset...end)
        } catch {
            throw .io(path: name, reason: error.description)
        }
        window.withLock { $0 = (offset, bytes) }
        return Array(bytes.prefix(wanted))
    }

    /// The bytes at `offset` when the window holds all `count` of them.
    private static func slice(_ window: (offset: UInt64, bytes: [UInt8]), offset: UInt64, count: Int) -> [UInt8]? {
        guard offset >= window.offset, offset + UInt64(count) <= window.offset + UInt64(window.bytes.count) else { return nil }
        let start = Int(offset - window.offset)
        return Array(window.bytes[start..<start + count])
    }
}
