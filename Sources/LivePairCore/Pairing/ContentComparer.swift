import LivePairFormats
import Synchronization

/// A byte range of one file: a whole file, or the video embedded in a motion photo.
struct ContentRange: Hashable, Sendable {
    /// The file.
    let path: String
    /// Where the range starts.
    let offset: UInt64
    /// How many bytes it holds.
    let length: UInt64

    /// The range that covers all `size` bytes of `path`.
    static func wholeFile(_ path: String, size: UInt64) -> ContentRange {
        ContentRange(path: path, offset: 0, length: size)
    }
}

/// Remembers the outcome of earlier comparisons, so a `PairingSession` asked for its result many
/// times reads each candidate pair of files once. Thread-safe.
final class ComparisonMemo: Sendable {
    private struct Key: Hashable {
        let first: ContentRange
        let second: ContentRange

        init(_ one: ContentRange, _ other: ContentRange) {
            let oneFirst = (one.path, one.offset, one.length) < (other.path, other.offset, other.length)
            first = oneFirst ? one : other
            second = oneFirst ? other : one
        }
    }

    private let outcomes = Mutex<[Key: Bool]>([:])
    private let fingerprints = Mutex<[ContentRange: UInt64]>([:])

    /// The remembered fingerprint of `range`, if any.
    func fingerprint(_ range: ContentRange) -> UInt64? { fingerprints.withLock { $0[range] } }

    /// Remembers the fingerprint of `range`.
    func record(_ range: ContentRange, fingerprint: UInt64) { fingerprints.withLock { $0[range] = fingerprint } }

    /// The remembered outcome of comparing `one` with `other`, if any.
    func outcome(_ one: ContentRange, _ other: ContentRange) -> Bool? {
        outcomes.withLock { $0[Key(one, other)] }
    }

    /// Remembers that `one` and `other` are (or are not) equal.
    func record(_ one: ContentRange, _ other: ContentRange, equal: Bool) {
        outcomes.withLock { $0[Key(one, other)] = equal }
    }

    /// Forgets every outcome that involves `path` (its file was added again and may have changed).
    func forget(path: String) {
        outcomes.withLock { table in
            table = table.filter { $0.key.first.path != path && $0.key.second.path != path }
        }
        fingerprints.withLock { table in table = table.filter { $0.key.path != path } }
    }
}

/// Compares byte ranges of files, streaming both in chunks and stopping at the first difference.
/// Ranges of different lengths are different without any read. A file that cannot be opened or
/// read, or that is shorter than the range, is different from everything.
struct ContentComparer: Sendable {
    /// Where bytes come from.
    let contents: any ResourceContentSource
    /// Bytes per read.
    let chunkSize: Int
    /// Earlier outcomes; nil to compare every time.
    let memo: ComparisonMemo?

    /// True when the two ranges hold the same bytes.
    func equal(_ one: ContentRange, _ other: ContentRange) -> Bool {
        guard one.length == other.length else { return false }
        if one == other { return true }
        if let known = memo?.outcome(one, other) { return known }
        let outcome = compare(one, other)
        memo?.record(one, other, equal: outcome)
        return outcome
    }

    /// Bytes hashed at each end of a range for its fingerprint: one page. The fingerprint only
    /// separates look-alikes (a full comparison confirms equality), and files that differ almost
    /// always differ in their headers or trailers.
    static let fingerprintSpan: UInt64 = 4 << 10

    /// A hash (FNV-1a, 64 bits) of the first and last 4 KiB of `range`, or nil when it cannot be
    /// read. Equal ranges have equal fingerprints, so among many same-size candidates only those
    /// with equal fingerprints need a full comparison: each candidate is read once, not once per
    /// other candidate.
    func fingerprint(_ range: ContentRange) -> UInt64? {
        if let known = memo?.fingerprint(range) { return known }
        guard let source = try? contents.open(path: range.path), fits(range, in: source) else { return nil }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        let head = min(range.length, Self.fingerprintSpan)
        let tailStart = max(head, range.length - min(range.length, Self.fingerprintSpan))
        for (start, end) in [(UInt64(0), head), (tailStart, range.length)] where end > start {
            guard let bytes = try? source.read(at: range.offset + start, count: Int(end - start)),
                bytes.count == Int(end - start)
            else { return nil }
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        }
        memo?.record(range, fingerprint: hash)
        return hash
    }

    private func compare(_ one: ContentRange, _ other: ContentRange) -> Bool {
        do {
            let first = try contents.open(path: one.path)
            let second = try contents.open(path: other.path)
            guard fits(one, in: first), fits(other, in: second) else { return false }
            // Start small and grow to the chunk size: files that differ usually differ early.
            let largest = UInt64(max(4096, chunkSize))
            var step = min(largest, 64 << 10)
            var done: UInt64 = 0
            while done < one.length {
                defer { step = min(largest, step * 2) }
                let count = Int(min(step, one.length - done))
                let left = try first.read(at: one.offset + done, count: count)
                let right = try second.read(at: other.offset + done, count: count)
                guard left.count == count, left == right else { return false }
                done += UInt64(count)
            }
            return true
        } catch {
            return false
        }
    }

    private func fits(_ range: ContentRange, in source: any ByteSource) -> Bool {
        range.offset <= source.size && range.length <= source.size - range.offset
    }
}
