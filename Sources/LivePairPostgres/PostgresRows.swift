/// The rows a statement returned, decoded by column type into `PostgresValue`s and copied out of
/// libpq (nothing refers to libpq memory once a result is built).
public struct PostgresRows: Sendable, Equatable {
    /// The column names, in order.
    public let columns: [String]
    /// The rows, each with one value per column.
    public let rows: [PostgresRow]
    /// How many rows an INSERT, UPDATE or DELETE touched (0 for other statements).
    public let affectedRows: Int

    /// Memberwise initializer.
    public init(columns: [String], rows: [PostgresRow], affectedRows: Int) {
        self.columns = columns
        self.rows = rows
        self.affectedRows = affectedRows
    }

    /// The first column of the first row, or nil when there is no row or it is NULL.
    public var scalar: PostgresValue? {
        guard let value = rows.first?.values.first, !value.isNull else { return nil }
        return value
    }
}

/// One result row. The typed accessors throw `PostgresError` (kind `.decoding`) when a cell does
/// not hold what was asked for.
public struct PostgresRow: Sendable, Equatable {
    /// The cells, one per column.
    public let values: [PostgresValue]

    /// A row of these cells.
    public init(values: [PostgresValue]) { self.values = values }

    private func mismatch(_ index: Int, _ wanted: String) -> PostgresError {
        PostgresError(kind: .decoding, message: "column \(index) holds \(values[index]), not \(wanted)")
    }

    /// The text in column `index`.
    public func string(_ index: Int) throws(PostgresError) -> String {
        guard case let .text(value) = values[index] else { throw mismatch(index, "text") }
        return value
    }

    /// The text in column `index`, or nil for NULL.
    public func optionalString(_ index: Int) throws(PostgresError) -> String? {
        values[index].isNull ? nil : try string(index)
    }

    /// The integer in column `index`.
    public func int64(_ index: Int) throws(PostgresError) -> Int64 {
        guard case let .integer(value) = values[index] else { throw mismatch(index, "an integer") }
        return value
    }

    /// The integer in column `index`, or nil for NULL.
    public func optionalInt64(_ index: Int) throws(PostgresError) -> Int64? {
        values[index].isNull ? nil : try int64(index)
    }

    /// The number in column `index` (integers are widened).
    public func double(_ index: Int) throws(PostgresError) -> Double {
        switch values[index] {
        case let .real(value): return value
        case let .integer(value): return Double(value)
        default: throw mismatch(index, "a number")
        }
    }

    /// The number in column `index`, or nil for NULL.
    public func optionalDouble(_ index: Int) throws(PostgresError) -> Double? {
        values[index].isNull ? nil : try double(index)
    }

    /// The boolean in column `index`.
    public func bool(_ index: Int) throws(PostgresError) -> Bool {
        guard case let .bool(value) = values[index] else { throw mismatch(index, "a boolean") }
        return value
    }

    /// The bytes in column `index`.
    public func bytes(_ index: Int) throws(PostgresError) -> [UInt8] {
        guard case let .bytes(value) = values[index] else { throw mismatch(index, "bytes") }
        return value
    }
}
