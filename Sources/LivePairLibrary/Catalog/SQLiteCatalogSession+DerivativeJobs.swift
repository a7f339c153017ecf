import Foundation
import LivePairSQLite

/// The derivative job table on SQLite: a claim is one `UPDATE ... RETURNING` inside the write
/// transaction (`BEGIN IMMEDIATE` serializes every claimer of every process).
extension SQLiteCatalogSession {
    func derivativeJobCounts() throws(LibraryError) -> [DerivativeJobState: Int] {
        var counts: [DerivativeJobState: Int] = [:]
        for (state, count) in try rows("SELECT state, COUNT(*) FROM derivative_jobs GROUP BY state", [], { row in
            DerivativeJobState(rawValue: row.string(0)).map { ($0, Int(row.int64(1))) }
        }) {
            counts[state] = count
        }
        return counts
    }

    func derivativeJobs(ofAsset identifier: String) throws(LibraryError) -> [DerivativeJob] {
        try rows("SELECT \(DerivativeJobSQL.columns) FROM derivative_jobs WHERE asset_id = ? ORDER BY id", [.text(identifier)], Self.decodeJob)
    }

    func derivativeJobs(ofAssets identifiers: [String]) throws(LibraryError) -> [String: [DerivativeJob]] {
        guard !identifiers.isEmpty else { return [:] }
        let jobs = try rows(
            "SELECT \(DerivativeJobSQL.columns) FROM derivative_jobs WHERE asset_id IN (SELECT value FROM json_each(?)) ORDER BY id",
            [.text(AssetQuerySQL.jsonArray(identifiers))], Self.decodeJob)
        return Dictionary(grouping: jobs, by: \.assetIdentifier)
    }

    func enqueueDerivativeJobs(assetIdentifier: String, kinds: [DerivativeJobKind]) throws(LibraryError) {
        try run("DELETE FROM derivative_jobs WHERE asset_id = ?", [.text(assetIdentifier)])
        for kind in kinds {
            try run(
                "INSERT INTO derivative_jobs(asset_id, kind, state) VALUES (?, ?, 'queued')", [.text(assetIdentifier), .text(kind.rawValue)])
        }
    }

    func claimDerivativeJob(_ claim: DerivativeJobClaim, now: Date) throws(LibraryError) -> DerivativeJob? {
        let time = now.timeIntervalSinceReferenceDate
        let expired = time - claim.leaseSeconds
        try run(
            "UPDATE derivative_jobs SET state = 'failed', cause = ? || attempts || ' times' WHERE state = 'running' AND claimed_at < ? AND attempts >= ?",
            [.text(DerivativeJobSQL.expiredCausePrefix), .real(expired), .integer(Int64(claim.maxAttempts))])
        return try rows(
            """
            UPDATE derivative_jobs SET state = 'running', node = ?, claimed_at = ?, attempts = attempts + 1
            WHERE id = (SELECT id FROM derivative_jobs WHERE state = 'queued' OR (state = 'running' AND claimed_at < ?) ORDER BY id LIMIT 1)
            RETURNING \(DerivativeJobSQL.columns)
            """, [.text(claim.node), .real(time), .real(expired)], Self.decodeJob
        ).first
    }

    func finishDerivativeJob(_ job: DerivativeJob, outcome: DerivativeJobOutcome, maxAttempts: Int) throws(LibraryError) -> Bool {
        let (state, cause) = DerivativeJobSQL.finished(outcome)
        try run(
            "UPDATE derivative_jobs SET state = CASE WHEN ? = 'retry' THEN (CASE WHEN attempts >= ? THEN 'failed' ELSE 'queued' END) ELSE ? END, cause = ? WHERE id = ? AND state = 'running' AND node = ? AND attempts = ?",
            [
                .text(state), .integer(Int64(maxAttempts)), .text(state), cause.map(SQLiteValue.text) ?? .null, .integer(job.id),
                .text(job.node ?? ""), .integer(Int64(job.attempts)),
            ])
        return database.changes > 0
    }

    func renewDerivativeJobLease(_ job: DerivativeJob, now: Date) throws(LibraryError) -> Bool {
        try run(
            "UPDATE derivative_jobs SET claimed_at = ? WHERE id = ? AND state = 'running' AND node = ? AND attempts = ?",
            [.real(now.timeIntervalSinceReferenceDate), .integer(job.id), .text(job.node ?? ""), .integer(Int64(job.attempts))])
        return database.changes > 0
    }

    static func decodeJob(_ row: SQLiteStatement) -> DerivativeJob? {
        guard let kind = DerivativeJobKind(rawValue: row.string(2)), let state = DerivativeJobState(rawValue: row.string(3)) else { return nil }
        return DerivativeJob(
            id: row.int64(0), assetIdentifier: row.string(1), kind: kind, state: state, attempts: Int(row.int64(4)),
            node: row.optionalString(5), claimedAt: row.optionalDouble(6), cause: row.optionalString(7))
    }
}
