/// A single `Range: bytes=…` request resolved against a length.
enum ByteRange {
    /// What the header asks of a resource of `size` bytes: nil to send it whole (no header, or
    /// one this server ignores: several ranges, another unit, bad syntax, as RFC 9110 allows),
    /// the byte offsets to send, or 416 when nothing of it lies in the resource or a number does
    /// not fit in 64 bits.
    static func resolve(_ header: String?, size: Int64) throws(HTTPError) -> ClosedRange<Int64>? {
        guard let header, header.hasPrefix("bytes="), !header.contains(",") else { return nil }
        let spec = header.dropFirst("bytes=".count).trimmingCharacters(in: " ")
        guard let dash = spec.firstIndex(of: "-") else { return nil }
        let first = spec[..<dash], last = spec[spec.index(after: dash)...]
        for number in [first, last] where !number.isEmpty && number.allSatisfy(\.isASCIIDigit) && Int64(number) == nil {
            throw .rangeNotSatisfiable(size: size)  // digits that overflow 64 bits: never the whole file
        }
        if first.isEmpty {
            guard let suffix = Int64(last), suffix >= 0 else { return nil }
            guard suffix > 0, size > 0 else { throw .rangeNotSatisfiable(size: size) }
            return max(0, size - suffix)...(size - 1)
        }
        guard let start = Int64(first), start >= 0 else { return nil }
        let end: Int64
        if last.isEmpty {
            end = size - 1
        } else {
            guard let value = Int64(last), value >= start else { return nil }
            end = min(value, size - 1)
        }
        guard start < size else { throw .rangeNotSatisfiable(size: size) }
        return start...end
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isWholeNumber }
}

extension Substring {
    fileprivate func trimmingCharacters(in character: Character) -> Substring {
        var text = self
        while text.first == character { text = text.dropFirst() }
        while text.last == character { text = text.dropLast() }
        return text
    }
}
