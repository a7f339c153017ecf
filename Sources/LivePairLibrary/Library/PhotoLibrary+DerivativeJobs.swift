import Foundation

/// The derivative job queue in the catalog (docs/http.md, "Derivatives made in the background"):
/// every batch that accepts an asset queues its placeholder, grid still and motion jobs in the same
/// transaction, so a crash loses none; `livepair serve` (on every node) and `livepair library
/// derivatives` claim and make them. Deleting an asset removes its jobs with it.
extension PhotoLibrary {
    /// Claims the oldest job waiting (or running past its lease: its node was killed), or nil when
    /// there is none. A job whose lease expired `claim.maxAttempts` times is failed instead.
    package func claimDerivativeJob(_ claim: DerivativeJobClaim, now: Date = Date()) throws(LibraryError) -> DerivativeJob? {
        guard configuration.access == .readWrite else { throw .readOnlyLibrary }
        // An idle worker asks often: a read first, so an empty queue takes no write lock.
        let counts = try catalog.read { (reader: any CatalogReader) throws(LibraryError) in try reader.derivativeJobCounts() }
        guard counts[.queued, default: 0] + counts[.running, default: 0] > 0 else { return nil }
        return try catalog.writeJobs { (writer: any CatalogWriter) throws(LibraryError) in try writer.claimDerivativeJob(claim, now: now) }
    }

    /// Records how a claimed job ended; false when the job is no longer that claim's (claimed again
    /// after its lease expired, queued again for a changed asset, or deleted with its asset).
    @discardableResult
    package func finishDerivativeJob(_ job: DerivativeJob, outcome: DerivativeJobOutcome, maxAttempts: Int) throws(LibraryError) -> Bool {
        try catalog.writeJobs { (writer: any CatalogWriter) throws(LibraryError) in
            try writer.finishDerivativeJob(job, outcome: outcome, maxAttempts: maxAttempts)
        }
    }

    /// Renews the lease of the claimed `job` (its worker is still making it), so no other node takes
    /// a slow job of a live node; false when the job is no longer that claim's.
    @discardableResult
    package func renewDerivativeJobLease(_ job: DerivativeJob, now: Date = Date()) throws(LibraryError) -> Bool {
        try catalog.writeJobs { (writer: any CatalogWriter) throws(LibraryError) in try writer.renewDerivativeJobLease(job, now: now) }
    }

    /// Queues the jobs of these assets again (all their kinds, attempts from zero), as `livepair
    /// library derivatives` does; returns how many assets were found.
    @discardableResult
    package func enqueueDerivativeJobs(forAssets identifiers: [String]) throws(LibraryError) -> Int {
        guard configuration.access == .readWrite else { throw .readOnlyLibrary }
        var found = 0
        for start in stride(from: 0, to: identifiers.count, by: 500) {
            let group = Array(identifiers[start..<min(start + 500, identifiers.count)])
            found += try catalog.write({ (writer: any CatalogWriter) throws(LibraryError) -> Int in
                let assets = try writer.assets(withIdentifiers: group, includingDeleted: false)
                for identifier in group {
                    guard let asset = assets[identifier] else { continue }
                    try writer.enqueueDerivativeJobs(assetIdentifier: identifier, kinds: DerivativeJobKind.kinds(of: asset))
                }
                return assets.count
            }, beforeCommit: {})
        }
        return found
    }

    /// How many jobs are in each state (every state listed, zero included).
    package func derivativeJobCounts() throws(LibraryError) -> [DerivativeJobState: Int] {
        let counts = try catalog.read { (reader: any CatalogReader) throws(LibraryError) in try reader.derivativeJobCounts() }
        return Dictionary(uniqueKeysWithValues: DerivativeJobState.allCases.map { ($0, counts[$0] ?? 0) })
    }

    /// The jobs of one asset, oldest first.
    package func derivativeJobs(ofAsset identifier: String) throws(LibraryError) -> [DerivativeJob] {
        try catalog.read { (reader: any CatalogReader) throws(LibraryError) in try reader.derivativeJobs(ofAsset: identifier) }
    }
}
