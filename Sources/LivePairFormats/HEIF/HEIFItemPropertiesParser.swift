/// Reads `iprp`: the `ipco` property list and the `ipma` associations.
enum HEIFItemPropertiesParser {
    /// The parsed properties and associations, plus problems met in properties that were skipped.
    struct Result {
        var properties: [HEIFItemProperty] = []
        var associations: [UInt32: [HEIFPropertyAssociation]] = [:]
        var issues: [FormatError] = []
    }

    /// Parses an `iprp` payload (a plain container). A malformed known property is kept as
    /// `.other` (so later indices stay right) and reported in `issues`.
    static func parse(_ payload: ByteReader, limits: ParseLimits) throws(FormatError) -> Result {
        var result = Result()
        var reader = payload
        reader.context = "meta/iprp"
        var ipmaSeen = false
        while reader.remaining >= 8 {
            do throws(FormatError) {
                let start = reader.position
                let box = try BoxParser.readHeader(&reader)
                try reader.seek(to: start + box.headerSize)
                let child = try reader.subReader(
                    count: Int(box.size) - box.headerSize, context: "meta/iprp/\(box.type)")
                if box.type == "ipco" {
                    guard result.properties.isEmpty else { continue }
                    try parseContainer(child, limits: limits, into: &result)
                } else if box.type == "ipma" {
                    try parseAssociations(child, limits: limits, into: &result.associations, merge: ipmaSeen)
                    ipmaSeen = true
                }
            } catch {
                if case .limitExceeded = error { throw error }
                result.issues.append(error)
                break
            }
        }
        return result
    }

    private static func parseContainer(_ payload: ByteReader, limits: ParseLimits, into result: inout Result)
        throws(FormatError)
    {
        var reader = payload
        while reader.remaining >= 8 {
            let start = reader.position
            let child: ByteReader
            let box: (type: FourCC, headerSize: Int, size: UInt64, encoding: BoxSizeEncoding)
            do throws(FormatError) {
                box = try BoxParser.readHeader(&reader)
                try reader.seek(to: start + box.headerSize)
                child = try reader.subReader(count: Int(box.size) - box.headerSize, context: "ipco/\(box.type)")
            } catch {
                result.issues.append(error)  // later properties cannot be located: keep those before
                return
            }
            if result.properties.count >= limits.maximumTableEntries {
                throw .limitExceeded(
                    context: "meta/iprp/ipco", limit: "property count", value: UInt64(result.properties.count + 1),
                    maximum: UInt64(limits.maximumTableEntries))
            }
            do {
                result.properties.append(try HEIFItemProperty.parse(type: box.type, payload: child, limits: limits))
            } catch {
                result.properties.append(.other(type: box.type))
                result.issues.append(error)
            }
        }
    }

    private static func parseAssociations(
        _ payload: ByteReader, limits: ParseLimits, into associations: inout [UInt32: [HEIFPropertyAssociation]],
        merge: Bool
    ) throws(FormatError) {
        var reader = payload
        reader.context = "meta/iprp/ipma"
        let header = try FullBoxHeader(&reader)
        let count = UInt64(try reader.u32())
        let idSize = header.version < 1 ? 2 : 4
        if count > UInt64(limits.maximumItemCount) {
            throw .limitExceeded(
                context: "meta/iprp/ipma", limit: "item count", value: count, maximum: UInt64(limits.maximumItemCount))
        }
        try limits.checkTable(count, entrySize: idSize + 1, available: reader.remaining, context: "meta/iprp/ipma")
        let wide = header.flags & 1 != 0
        for _ in 0..<count {
            let itemID = try reader.unsignedID(size: idSize)
            let associationCount = Int(try reader.u8())
            var list: [HEIFPropertyAssociation] = []
            list.reserveCapacity(associationCount)
            for _ in 0..<associationCount {
                if wide {
                    let value = try reader.u16()
                    list.append(HEIFPropertyAssociation(propertyIndex: Int(value & 0x7FFF), isEssential: value & 0x8000 != 0))
                } else {
                    let value = try reader.u8()
                    list.append(HEIFPropertyAssociation(propertyIndex: Int(value & 0x7F), isEssential: value & 0x80 != 0))
                }
            }
            if merge, let existing = associations[itemID] {
                associations[itemID] = existing + list
            } else {
                associations[itemID] = list
            }
        }
    }
}
