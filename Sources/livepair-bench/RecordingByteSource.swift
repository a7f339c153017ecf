import Foundation
import LivePairFormats

/// A byte source that records which ranges are read from it, to learn what identification needs.
final class RecordingByteSource: ByteSource, @unchecked Sendable {
    // Sendable: `ranges` is only touched under `lock`.
    private let base: any ByteSource
    private let lock = NSLock()
    private var ranges: [Range<UInt64>] = []

    init(_ base: any ByteSource) { self.base = base }

    var size: UInt64 { base.size }
    var name: String { base.name }

    func read(at offset: UInt64, count: Int) throws(FormatError) -> [UInt8] {
        let bytes = try base.read(at: offset, count: count)
        lock.withLock { ranges.append(offset..<offset + UInt64(bytes.count)) }
        return bytes
    }

    /// The ranges read, widened to whole pages of `pageSize` bytes and merged, in order.
    func pages(pageSize: UInt64 = 4096) -> [Range<UInt64>] {
        let widened = lock.withLock { ranges }.map { range in
            (range.lowerBound / pageSize * pageSize)..<min(size, (range.upperBound + pageSize - 1) / pageSize * pageSize)
        }.sorted { $0.lowerBound < $1.lowerBound }
        var merged: [Range<UInt64>] = []
        for range in widened {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }
}
