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
            if bytes[index..<index + pattern.count].elementsEqual(pattern) { return true }
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
            if bytes[index..<index + pattern.count].elementsEqual(pattern) { matches.append(index) }
            searchStart = index + 1
        }
        return matches
    }
}
