/// Reads CSV text (RFC 4180 as Apple's and spreadsheet exports write it): fields separated by
/// commas, quoted fields with `""` for a quote and commas or line breaks inside, lines ending in
/// LF or CRLF, an optional UTF-8 byte order mark. Bounded: at most `maximumRows` rows of at most
/// `maximumFields` fields; a field never grows past the input.
public struct CSVReader: Sendable {
    /// Why a CSV file could not be read.
    public enum Failure: Error, Equatable, Sendable {
        /// More rows or fields than the reader takes.
        case tooLarge(String)
        /// A quoted field is not closed before the end.
        case unterminatedQuote
    }

    /// The most rows read.
    public var maximumRows: Int
    /// The most fields in a row.
    public var maximumFields: Int

    /// A reader with bounds.
    public init(maximumRows: Int = 1_000_000, maximumFields: Int = 256) {
        self.maximumRows = maximumRows
        self.maximumFields = maximumFields
    }

    /// The rows of `bytes`; blank lines are skipped.
    public func rows(_ bytes: [UInt8]) throws(Failure) -> [[String]] {
        var start = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
        var rows: [[String]] = []
        var row: [String] = []
        var field: [UInt8] = []
        var quoted = false
        var index = start
        func endField() throws(Failure) {
            row.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            guard row.count <= maximumFields else { throw .tooLarge("more than \(maximumFields) fields in a row") }
        }
        func endRow() throws(Failure) {
            try endField()
            if !(row.count == 1 && row[0].isEmpty) {
                rows.append(row)
                guard rows.count <= maximumRows else { throw .tooLarge("more than \(maximumRows) rows") }
            }
            row.removeAll(keepingCapacity: true)
        }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 1
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(byte)
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\"") where field.isEmpty: quoted = true
            case UInt8(ascii: ","): try endField()
            case UInt8(ascii: "\r") where index < bytes.count && bytes[index] == UInt8(ascii: "\n"): continue
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"): try endRow()
            default: field.append(byte)
            }
        }
        guard !quoted else { throw .unterminatedQuote }
        if !field.isEmpty || !row.isEmpty { try endRow() }
        return rows
    }
}
