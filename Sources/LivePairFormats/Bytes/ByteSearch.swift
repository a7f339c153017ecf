#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Fast searches in byte buffers, for the few places that must scan data rather than parse it
/// (resynchronising a damaged JPEG, looking for an `ftyp` box in a motion photo's tail). Built on
/// libc's vectorised `memchr`: scanning half a megabyte costs microseconds, not milliseconds.
public enum ByteSearch {
    /// The index of the first `byte` in `bytes`, or nil.
    public static func firstIndex(of byte: UInt8, in bytes: ArraySlice<UInt8>) -> Int? {
        bytes.withUnsafeBytes { raw -> Int? in
            guard let base = raw.baseAddress, raw.count > 0,
                let found = memchr(base, Int32(byte), raw.count)
            else { return nil }
            return bytes.startIndex + (UnsafeRawPointer(found) - base)
        }
    }

    /// True when `pattern` occurs in `bytes` (an empty pattern occurs everywhere).
    public static func contains(_ pattern: [UInt8], in bytes: ArraySlice<UInt8>) -> Bool {
        guard let first = pattern.first else { return true }
        guard bytes.count >= pattern.count else { return false }
        var searchStart = bytes.startIndex
        let lastStart = bytes.endIndex - pattern.count
        while searchStart <= lastStart, let index = firstIndex(of: first, in: bytes[searchStart...lastStart]) {
            if matches(pattern, in: bytes, at: index) { return true }
            searchStart = index + 1
        }
        return false
    }

    /// Every index where `pattern` starts in `bytes`, ascending (overlapping matches included).
    public static func indices(of pattern: [UInt8], in bytes: ArraySlice<UInt8>) -> [Int] {
        guard let first = pattern.first, bytes.count >= pattern.count else { return [] }
        var matches: [Int] = []
        var searchStart = bytes.startIndex
        let lastStart = bytes.endIndex - pattern.count
        while searchStart <= lastStart, let index = firstIndex(of: first, in: bytes[searchStart...lastStart]) {
            if Self.matches(pattern, in: bytes, at: index) { matches.append(index) }
            searchStart = index + 1
        }
        return matches
    }

    /// True when `pattern` is at `index` of `bytes` (the caller checked that it fits): `memcmp`,
    /// because a slice comparison runs element by element through generic code in debug builds.
    private static func matches(_ pattern: [UInt8], in bytes: ArraySlice<UInt8>, at index: Int) -> Bool {
        bytes.withUnsafeBytes { raw in
            pattern.withUnsafeBytes { wanted in
                memcmp(raw.baseAddress! + (index - bytes.startIndex), wanted.baseAddress!, wanted.count) == 0
            }
        }
    }
}
