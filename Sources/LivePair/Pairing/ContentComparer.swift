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

    private func compare(_ one: ContentRange, _ other: ContentRange) -> Bool {
        do {
            let first = try contents.open(path: one.path)
            let second = try contents.open(path: other.path)
            guard fits(one, in: first), fits(other, in: second) else { return false }
            let step = UInt64(max(4096, chunkSize))
            var done: UInt64 = 0
            while done < one.length {
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
