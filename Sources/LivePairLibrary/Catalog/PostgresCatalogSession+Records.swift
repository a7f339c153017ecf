import Foundation
import LivePairPostgres

extension PostgresCatalogSession {
    private static let recordColumns = "namespace, key, lookup_key, digest, date, payload"

    private static func decodeRecord(_ row: PostgresRow) throws(PostgresError) -> CatalogRecord? {
        CatalogRecord(
            namespace: try row.string(0), key: try row.string(1), lookupKey: try row.optionalString(2),
            digest: try row.optionalString(3).flatMap(ContentDigest.init(hex:)),
            date: try row.optionalDouble(4).map(Date.init(timeIntervalSinceReferenceDate:)), payload: try row.bytes(5))
    }

    func record(namespace: String, key: String) throws(LibraryError) -> CatalogRecord? {
        try rows(
            "SELECT \(Self.recordColumns) FROM records WHERE namespace = $1 AND key = $2", [.text(namespace), .text(key)],
            Self.decodeRecord
        ).first
    }

    func records(namespace: String, lookupKey: String) throws(LibraryError) -> [CatalogRecord] {
        try rows(
            "SELECT \(Self.recordColumns) FROM records WHERE namespace = $1 AND lookup_key = $2 ORDER BY key",
            [.text(namespace), .text(lookupKey)], Self.decodeRecord)
    }

    func records(namespace: String, keys: [String]) throws(LibraryError) -> [CatalogRecord] {
        guard !keys.isEmpty else { return [] }
        return try rows(
            "SELECT \(Self.recordColumns) FROM records WHERE namespace = $1 AND key IN (SELECT json_array_elements_text($2::json)) ORDER BY key",
            [.text(namespace), Self.list(keys)], Self.decodeRecord)
    }

    func records(namespace: String, olderThan date: Date) throws(LibraryError) -> [CatalogRecord] {
        try rows(
            "SELECT \(Self.recordColumns) FROM records WHERE namespace = $1 AND date < $2 ORDER BY date, key",
            [.text(namespace), .real(date.timeIntervalSinceReferenceDate)], Self.decodeRecord)
    }

    func records(namespace: String) throws(LibraryError) -> [CatalogRecord] {
        try rows(
            "SELECT \(Self.recordColumns) FROM records WHERE namespace = $1 ORDER BY key", [.text(namespace)],
            Self.decodeRecord)
    }

    func putRecord(_ record: CatalogRecord) throws(LibraryError) {
        try run(
            "INSERT INTO records(\(Self.recordColumns)) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (namespace, key) DO UPDATE SET lookup_key = EXCLUDED.lookup_key, digest = EXCLUDED.digest, date = EXCLUDED.date, payload = EXCLUDED.payload",
            [
                .text(record.namespace), .text(record.key), .optional(record.lookupKey), .optional(record.digest?.hex),
                .optional(record.date?.timeIntervalSinceReferenceDate), .bytes(record.payload),
            ])
    }

    @discardableResult
    func removeRecord(namespace: String, key: String) throws(LibraryError) -> Bool {
        try run("DELETE FROM records WHERE namespace = $1 AND key = $2", [.text(namespace), .text(key)]).affectedRows == 1
    }
}
