import Dispatch

extension PhotoLibrary {
    /// Runs `block` to build a batch of requests, then applies the batch all or nothing and
    /// returns what it did; observers hear of it before this returns.
    ///
    /// Resources are stored first (durably), then one catalog transaction writes every row; any
    /// error rolls it back, removes the files stored only for this batch, and leaves moved source
    /// files in place (they are unlinked only after the commit).
    @discardableResult
    public func performChangesAndWait(_ block: (ChangeContext) throws -> Void) throws(LibraryError) -> ChangeResult {
        try apply(try Self.plan(block), hooks: ChangeBatchExecutor.TransactionHooks())
    }

    /// `performChangesAndWait`, with the batch applied off the caller's task.
    @discardableResult
    public func performChanges(_ block: (ChangeContext) throws -> Void) async throws(LibraryError) -> ChangeResult {
        let plan = try Self.plan(block)
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<ChangeResult, LibraryError>, Never>) in
            DispatchQueue.global(qos: .userInitiated).async {
                do throws(LibraryError) {
                    continuation.resume(returning: .success(try self.apply(plan, hooks: ChangeBatchExecutor.TransactionHooks())))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try outcome.get()
    }

    /// Runs `block` and applies the batch on a background queue, then calls `completionHandler`
    /// with the outcome (as PhotoKit's `performChanges(_:completionHandler:)`).
    public func performChanges(
        _ block: @escaping @Sendable (ChangeContext) throws -> Void,
        completionHandler: @escaping @Sendable (Result<ChangeResult, LibraryError>) -> Void
    ) {
        DispatchQueue.global(qos: .userInitiated).async {
            do throws(LibraryError) {
                completionHandler(.success(try self.performChangesAndWait(block)))
            } catch {
                completionHandler(.failure(error))
            }
        }
    }

    /// For components of this module (the ingestor): applies `block`'s batch with extra catalog
    /// work in the same transaction. `inTransaction` runs first inside the write transaction (it
    /// may read and write records and add requests through `CatalogTransaction.changes`);
    /// `afterApplying` runs after the rows are written, with the outcome, before the commit. An
    /// error from either rolls everything back.
    @discardableResult
    func performChangesAndWait(
        _ block: (ChangeContext) throws -> Void,
        inTransaction: ((CatalogTransaction) throws(LibraryError) -> Void)?,
        afterApplying: ((CatalogTransaction, ChangeResult) throws(LibraryError) -> Void)? = nil
    ) throws(LibraryError) -> ChangeResult {
        try apply(
            try Self.plan(block),
            hooks: ChangeBatchExecutor.TransactionHooks(beforeApplying: inTransaction, afterApplying: afterApplying))
    }

    /// Reads the catalog in one snapshot, for components of this module (records, lookups).
    func readCatalog<Value>(_ body: (any CatalogReader) throws(LibraryError) -> Value) throws(LibraryError) -> Value {
        try catalog.read(body)
    }

    /// The requests `block` makes.
    static func plan(_ block: (ChangeContext) throws -> Void) throws(LibraryError) -> ChangeBatchPlan {
        let context = ChangeContext()
        do {
            try ChangeContext.$binding.withValue(ChangeContext.Binding(context: context)) { try block(context) }
        } catch let error as LibraryError {
            throw error
        } catch {
            throw .changeBlockFailed("\(error)")
        }
        return ChangeBatchPlan(context)
    }

    /// Applies `plan` and delivers the committed change (with any other process's before it).
    private func apply(_ plan: ChangeBatchPlan, hooks: ChangeBatchExecutor.TransactionHooks) throws(LibraryError) -> ChangeResult {
        if plan.isEmpty && hooks.beforeApplying == nil && hooks.afterApplying == nil { return ChangeResult() }
        let result = try executor.execute(plan, hooks: hooks)
        // Also after a batch whose hooks wrote the change log (the ingestor attaching a movie to an
        // asset): delivering reads the log, so nothing committed is missed.
        noticeChanges()
        return result
    }
}
