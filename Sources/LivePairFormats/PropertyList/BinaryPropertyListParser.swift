/// Parses a binary property list (`bplist00`): a header, objects, an offset table and a 32-byte
/// trailer. Every offset and count is checked against the bytes before use; an object that refers
/// back to one of its own ancestors throws `invalid` (a cycle); values and decoded bytes are
/// counted against `ParseLimits` through `PropertyListBudget`.
struct BinaryPropertyListParser {
    let bytes: [UInt8]
    let limits: ParseLimits
    let context: String

    init(bytes: [UInt8], limits: ParseLimits, context: String) {
        self.bytes = bytes
        self.limits = limits
        self.context = context
    }

    /// The trailer's fields.
    private struct Trailer {
        var offsetSize: Int
        var referenceSize: Int
        var objectCount: Int
        var topObject: Int
        var offsetTableOffset: Int
    }

    func fail(_ reason: String) -> FormatError { .invalid(context: context, reason: reason) }

    func parse() throws(FormatError) -> PropertyListValue {
        guard bytes.count >= 8 + 32 else {
            throw .truncated(context: context, needed: 40, available: UInt64(bytes.count))
        }
        guard bytes.starts(with: Array("bplist00".utf8)) else {
            throw .unsupported(
                context: context,
                reason: "binary property list version '\(String(decoding: bytes[6..<8], as: UTF8.self))' (only 00 is read)")
        }
        var reader = ByteReader(bytes, context: context)
        try reader.seek(to: bytes.count - 32)
        try reader.skip(6)
        let offsetSize = Int(try reader.u8())
        let referenceSize = Int(try reader.u8())
        let objectCount = try reader.u64()
        let topObject = try reader.u64()
        let offsetTableOffset = try reader.u64()
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw fail("trailer sizes (offsets \(offsetSize), references \(referenceSize) bytes) are not 1 to 8")
        }
        if objectCount > UInt64(limits.maximumPropertyListObjects) {
            throw .limitExceeded(
                context: context, limit: "object count", value: objectCount,
                maximum: UInt64(limits.maximumPropertyListObjects))
        }
        guard topObject < objectCount else { throw fail("top object \(topObject) is not below the object count \(objectCount)") }
        let trailerStart = UInt64(bytes.count - 32)
        guard offsetTableOffset >= 8, offsetTableOffset <= trailerStart,
            objectCount * UInt64(offsetSize) <= trailerStart - offsetTableOffset
        else { throw fail("offset table at \(offsetTableOffset) does not fit between the header and the trailer") }
        let trailer = Trailer(
            offsetSize: offsetSize, referenceSize: referenceSize, objectCount: Int(objectCount),
            topObject: Int(topObject), offsetTableOffset: Int(offsetTableOffset))
        var budget = PropertyListBudget(limits: limits, context: context)
        var ancestors = Set<Int>()
        return try object(trailer.topObject, trailer, &budget, &ancestors, depth: 0)
    }

    /// Reads a big-endian unsigned integer of `size` bytes at `offset` (already bounds-checked).
    private func unsigned(at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<size { value = value << 8 | UInt64(bytes[offset + index]) }
        return value
    }

    private func offset(of reference: Int, _ trailer: Trailer) throws(FormatError) -> Int {
        guard reference >= 0, reference < trailer.objectCount else {
            throw fail("object reference \(reference) is not below the object count \(trailer.objectCount)")
        }
        let offset = unsigned(at: trailer.offsetTableOffset + reference * trailer.offsetSize, size: trailer.offsetSize)
        guard offset >= 8, offset < UInt64(trailer.offsetTableOffset) else {
            throw fail("object \(reference) at offset \(offset) lies outside the object area")
        }
        return Int(offset)
    }

    /// The element count of the object whose marker is at `offset`, and where its content starts.
    private func count(marker: UInt8, at offset: Int, _ trailer: Trailer) throws(FormatError) -> (count: Int, start: Int) {
        let low = Int(marker & 0x0F)
        guard low == 0x0F else { return (low, offset + 1) }
        let end = trailer.offsetTableOffset
        guard end - offset >= 2 else { throw .truncated(context: context, needed: 2, available: UInt64(end - offset)) }
        let intMarker = bytes[offset + 1]
        guard intMarker >> 4 == 0x1, intMarker & 0x0F <= 3 else {
            throw fail("object at \(offset) has a count that is not an integer")
        }
        let size = 1 << Int(intMarker & 0x0F)
        guard end - offset - 2 >= size else {
            throw .truncated(context: context, needed: UInt64(size), available: UInt64(end - offset - 2))
        }
        let value = unsigned(at: offset + 2, size: size)
        guard value <= UInt64(end) else { throw fail("object at \(offset) declares \(value) elements") }
        return (Int(value), offset + 2 + size)
    }

    /// Throws unless `count` items of `size` bytes fit between `start` and the offset table.
    private func require(_ count: Int, of size: Int, from start: Int, _ trailer: Trailer) throws(FormatError) {
        let available = trailer.offsetTableOffset - start
        if available < 0 || count > available / max(size, 1) {
            throw .truncated(
                context: context, needed: UInt64(count) * UInt64(size), available: UInt64(max(available, 0)))
        }
    }

    private func object(
        _ reference: Int, _ trailer: Trailer, _ budget: inout PropertyListBudget, _ ancestors: inout Set<Int>,
        depth: Int
    ) throws(FormatError) -> PropertyListValue {
        try budget.check(depth: depth)
        let offset = try offset(of: reference, trailer)
        let marker = bytes[offset]
        switch marker >> 4 {
        case 0x0:
            try budget.spend()
            switch marker {
            case 0x08: return .boolean(false)
            case 0x09: return .boolean(true)
            default: throw fail("object \(reference) has the unsupported marker 0x\(String(marker, radix: 16))")
            }
        case 0x1:
            try budget.spend()
            let size = 1 << Int(marker & 0x0F)
            guard size <= 16 else { throw fail("integer of \(size) bytes") }
            try require(1, of: size, from: offset + 1, trailer)
            if size == 16 {
                let high = unsigned(at: offset + 1, size: 8), low = unsigned(at: offset + 9, size: 8)
                let lowValue = Int64(bitPattern: low)
                guard high == 0 || (high == UInt64.max && lowValue < 0) else {
                    throw .unsupported(context: context, reason: "integer of object \(reference) does not fit 64 bits")
                }
                return .integer(lowValue)
            }
            let value = unsigned(at: offset + 1, size: size)
            return .integer(Int64(bitPattern: value))
        case 0x2, 0x3:
            try budget.spend()
            let isDate = marker >> 4 == 0x3
            let size = 1 << Int(marker & 0x0F)
            guard size == 4 || size == 8, !isDate || size == 8 else { throw fail("real of \(size) bytes") }
            try require(1, of: size, from: offset + 1, trailer)
            let raw = unsigned(at: offset + 1, size: size)
            let value = size == 4 ? Double(Float(bitPattern: UInt32(raw))) : Double(bitPattern: raw)
            return isDate ? .date(PropertyListDate(secondsSinceReferenceDate: value)) : .real(value)
        case 0x4:
            let (count, start) = try count(marker: marker, at: offset, trailer)
            try require(count, of: 1, from: start, trailer)
            try budget.spend(bytes: count)
            return .data(Array(bytes[start..<(start + count)]))
        case 0x5:
            let (count, start) = try count(marker: marker, at: offset, trailer)
            try require(count, of: 1, from: start, trailer)
            try budget.spend(bytes: count)
            return .string(String(decoding: bytes[start..<(start + count)], as: UTF8.self))
        case 0x6:
            let (count, start) = try count(marker: marker, at: offset, trailer)
            try require(count, of: 2, from: start, trailer)
            try budget.spend(bytes: count * 2)
            var units: [UInt16] = []
            units.reserveCapacity(count)
            for index in 0..<count { units.append(UInt16(unsigned(at: start + 2 * index, size: 2))) }
            return .string(String(decoding: units, as: UTF16.self))
        case 0x8:
            try budget.spend()
            let size = Int(marker & 0x0F) + 1
            try require(1, of: size, from: offset + 1, trailer)
            return .uid(unsigned(at: offset + 1, size: min(size, 8)))
        case 0xA, 0xD:
            let isDictionary = marker >> 4 == 0xD
            let (count, start) = try count(marker: marker, at: offset, trailer)
            try require(isDictionary ? count * 2 : count, of: trailer.referenceSize, from: start, trailer)
            try budget.spend()
            guard ancestors.insert(reference).inserted else {
                throw fail("object \(reference) contains itself (cyclic reference)")
            }
            defer { ancestors.remove(reference) }
            func child(_ index: Int) -> Int {
                Int(unsigned(at: start + index * trailer.referenceSize, size: trailer.referenceSize))
            }
            if !isDictionary {
                var elements: [PropertyListValue] = []
                elements.reserveCapacity(count)
                for index in 0..<count {
                    elements.append(try object(child(index), trailer, &budget, &ancestors, depth: depth + 1))
                }
                return .array(elements)
            }
            var dictionary = PropertyListDictionary()
            dictionary.entries.reserveCapacity(count)
            for index in 0..<count {
                guard case let .string(key) = try object(child(index), trailer, &budget, &ancestors, depth: depth + 1)
                else { throw fail("dictionary \(reference) has a key that is not a string") }
                let value = try object(child(count + index), trailer, &budget, &ancestors, depth: depth + 1)
                dictionary.entries.append(PropertyListEntry(key, value))
            }
            return .dictionary(dictionary)
        default:
            throw fail("object \(reference) has the unknown marker 0x\(String(marker, radix: 16))")
        }
    }
}
