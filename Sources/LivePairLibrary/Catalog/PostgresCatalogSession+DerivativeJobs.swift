import Foundation
import LivePairPostgres

/// The derivative job table on PostgreSQL. Claims run in `PostgresCatalog.writeJobs` (no catalog
/// lock) and select with `FOR UPDATE SKIP LOCKED`, so nodes claiming at once each take a different
/// job without waiting for each other.
extension PostgresCatalogSession {
    func derivativeJobCounts() throws(LibraryError) -> [DerivativeJobState: Int] {
        var counts: [DerivativeJobState: Int] = [:]
        for (state, count) in try rows("SELECT state, count(*) FROM derivative_jobs GROUP BY state", [], {
            (row: PostgresRow) throws(PostgresError) -> (DerivativeJobState, Int)? in
            guard let state = DerivativeJobState(rawValue: try row.string(0)) else { return nil }
            return (state, Int(try row.int64(1)))
        }) {
            counts[state] = count
        }
        return counts
    }

    func derivativeJobs(ofAsset identifier: String) throws(LibraryError) -> [DerivativeJob] {
        try rows(
            "SELECT \(DerivativeJobSQL.columns) FROM derivative_jobs WHERE asset_id = $1 ORDER BY id", [.text(identifier)], Self.decodeJob)
    }

    func derivativeJobs(ofAssets identifiers: [String]) throws(LibraryError) -> [String: [DerivativeJob]] {
        guard !identifiers.isEmpty else { return [:] }
        let jobs = try rows(
            "SELECT \(DerivativeJobSQL.columns) FROM derivative_jobs WHERE asset_id IN (SELECT json_array_elements_text($1::json)) ORDER BY id",
            [Self.list(identifiers)], Self.decodeJob)
        return Dictionary(grouping: jobs, by: \.assetIdentifier)
    }

    func enqueueDerivativeJobs(assetIdentifier: String, kinds: [DerivativeJobKind]) throws(LibraryError) {
        try run("DELETE FROM derivative_jobs WHERE asset_id = $1", [.text(assetIdentifier)])
        for kind in kinds {
            try run(
                "INSERT INTO derivative_jobs(asset_id, kind, state) VALUES ($1, $2, 'queued')", [.text(assetIdentifier), .text(kind.rawValue)])
        }
    }

    func claimDerivativeJob(_ claim: DerivativeJobClaim, now: Date) throws(LibraryError) -> DerivativeJob? {
        let time = now.timeIntervalSinceReferenceDate
        let expired = time - claim.leaseSeconds
        try run(
            """
            UPDATE derivative_jobs SET state = 'failed', cause = $1 || attempts || ' times'
            WHERE id IN (SELECT id FROM derivative_jobs WHERE state = 'running' AND claimed_at < $2 AND attempts >= $3 FOR UPDATE SKIP LOCKED)
            """, [.text(DerivativeJobSQL.expiredCausePrefix), .real(expired), .integer(Int64(claim.maxAttempts))])
        return try rows(
            """
            UPDATE derivative_jobs SET state = 'running', node = $1, claimed_at = $2, attempts = attempts + 1
            WHERE id = (
                SELECT id FROM derivative_jobs WHERE state = 'queued' OR (state = 'running' AND claimed_at < $3)
                ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
            RETURNING \(DerivativeJobSQL.columns)
            """, [.text(claim.node), .real(time), .real(expired)], Self.decodeJob
        ).first
    }

    func finishDerivativeJob(_ job: DerivativeJob, outcome: DerivativeJobOutcome, maxAttempts: Int) throws(LibraryError) -> Bool {
        let (state, cause) = DerivativeJobSQL.finished(outcome)
        let result = try run(
            """
            UPDATE derivative_jobs SET state = CASE WHEN $1 = 'retry' THEN (CASE WHEN attempts >= $2 THEN 'failed' ELSE 'queued' END) ELSE $1 END,
                cause = $3
            WHERE id = $4 AND state = 'running' AND node = $5 AND attempts = $6
            """,
            [
                .text(state), .integer(Int64(maxAttempts)), cause.map(PostgresValue.text) ?? .null, .integer(job.id),
                .text(job.node ?? ""), .integer(Int64(job.attempts)),
            ])
        return result.affectedRows > 0
    }

    func renewDerivativeJobLease(_ job: DerivativeJob, now: Date) throws(LibraryError) -> Bool {
        let result = try run(
            "UPDATE derivative_jobs SET claimed_at = $1 WHERE id = $2 AND state = 'running' AND node = $3 AND attempts = $4",
            [.real(now.timeIntervalSinceReferenceDate), .integer(job.id), .text(job.node ?? ""), .integer(Int64(job.attempts))])
        return result.affectedRows > 0
    }

    static func decodeJob(_ row: PostgresRow) throws(PostgresError) -> DerivativeJob? {
        guard let kind = DerivativeJobKind(rawValue: try row.string(2)), let state = DerivativeJobState(rawValue: try row.string(3))
        else { return nil }
        return DerivativeJob(
            id: try row.int64(0), assetIdentifier: try row.string(1), kind: kind, state: state, attempts: Int(try row.int64(4)),
            node: try row.optionalString(5), claimedAt: try row.optionalDouble(6), cause: try row.optionalString(7))
    }
}
