import Foundation
import LivePair

/// Applies one change batch, all or nothing:
///
/// 1. every resource is stored (durable) in the content-addressed store;
/// 2. each creation is read and validated from its stored files;
/// 3. ONE catalog transaction (`BEGIN IMMEDIATE`) checks duplicates, writes every row and the
///    change-log entry, and commits;
/// 4. after the commit, moved source files are unlinked and files no row uses any more are removed.
///
/// Any failure before the commit rolls the transaction back and removes the files stored for this
/// batch that nothing references; moved sources are untouched until after the commit.
struct ChangeBatchExecutor {
    /// Hooks a component of this module runs inside the batch's transaction.
    struct TransactionHooks {
        /// Runs first in the transaction; may add requests and read or write records.
        var beforeApplying: ((CatalogTransaction) throws(LibraryError) -> Void)?
        /// Runs after the requests are applied, with the outcome, before the commit.
        var afterApplying: ((CatalogTransaction, ChangeResult) throws(LibraryError) -> Void)?
    }

    let catalog: any Catalog
    let store: any ResourceStore
    let configuration: LibraryConfiguration
    /// The identity the library verified when it opened (catalog and store marker agree); files
    /// are removed only while the catalog still carries it, never when it is nil.
    let libraryIdentity: String?

    private func fault(_ point: FaultPoint) throws(LibraryError) {
        try FaultInjection.inject(point, configuration.faultInjector)
    }

    /// Applies `plan` (and what `hooks` add) and returns the outcome.
    func execute(_ plan: ChangeBatchPlan, hooks: TransactionHooks = TransactionHooks()) throws(LibraryError) -> ChangeResult {
        guard configuration.access == .readWrite else { throw .readOnlyLibrary }
        let started = ContinuousClock.now
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try executeOnce(plan, hooks: hooks)
            } catch {
                // A stored file removed by a concurrent clean-up between storing and committing: store again once.
                if case .resourceMissing = error, attempt == 1 { continue }
                // A server catalog's serialization failure, deadlock or lost connection rolled the
                // batch back: run it again (about 3 s of backoff in all, and never once the
                // catalog's retry window has passed: a server out of reach), then report.
                let delay = 0.05 * Double(1 << attempt)
                guard error.isRetryableCatalogFailure, attempt < 7,
                    (ContinuousClock.now - started) + .seconds(delay) < .seconds(configuration.catalogRetrySeconds)
                else { throw error }
                Thread.sleep(forTimeInterval: delay)
            }
        }
    }

    /// The state one attempt builds up.
    private final class Attempt {
        var storeIndex = 0
        /// Digests stored for this batch (candidates for removal when it fails).
        var storedDigests: Set<ContentDigest> = []
        /// Files to unlink after the commit.
        var movedSources: [String] = []
        /// Digests that deleted assets used.
        var releasedDigests: Set<ContentDigest> = []
    }

    private func executeOnce(_ plan: ChangeBatchPlan, hooks: TransactionHooks) throws(LibraryError) -> ChangeResult {
        let state = Attempt()
        let now = Date()
        let result: ChangeResult
        do throws(LibraryError) {
            var prepared: [PreparedCreation] = []
            for creation in plan.creations {
                prepared.append(try prepare(creation, state: state, addedDate: now))
            }
            var edits = try prepareEdits(plan.assetChanges, state: state)
            try fault(.beginCatalogTransaction)
            result = try catalog.write(
                { (writer: any CatalogWriter) throws(LibraryError) -> ChangeResult in
                    var plan = plan
                    let presence = StorePresence(store: store)
                    let transaction = CatalogTransaction(
                        catalog: writer, store: store, presence: presence, faultInjector: configuration.faultInjector)
                    if let beforeApplying = hooks.beforeApplying {
                        try beforeApplying(transaction)
                        let added = ChangeBatchPlan(transaction.changes)
                        let offset = plan.creations.count
                        let changeOffset = plan.assetChanges.count
                        plan.append(added)
                        for creation in plan.creations[offset...] {
                            prepared.append(try prepare(creation, state: state, addedDate: now, presence: presence))
                        }
                        edits.merge(
                            try prepareEdits(plan.assetChanges, from: changeOffset, state: state, presence: presence),
                            uniquingKeysWith: { first, _ in first })
                    }
                    let result = try apply(
                        plan, prepared: prepared, edits: edits, writer: writer, state: state, now: now, presence: presence)
                    try hooks.afterApplying?(transaction, result)
                    return result
                }, beforeCommit: { () throws(LibraryError) in try fault(.commitCatalogTransaction) })
        } catch {
            removeUnreferenced(state.storedDigests, injectingFaults: false)
            throw error
        }
        finishAfterCommit(state)
        return result
    }

    /// Stores the resources of `creation` and reads them. `presence` is the transaction's when the
    /// write lock is held (requests added inside the transaction), nil before it.
    private func prepare(
        _ creation: ChangeBatchPlan.Creation, state: Attempt, addedDate: Date, presence: StorePresence? = nil
    ) throws(LibraryError) -> PreparedCreation {
        var stored: [StoredResource] = []
        for addition in creation.additions {
            stored.append(try store(addition.source, state: state, presence: presence))
        }
        let validator = Validator(options: ValidationOptions(deep: configuration.deepValidation))
        return try PreparedCreation(creation, stored: stored, store: store, validator: validator, addedDate: addedDate)
    }

    /// Stores the files of the edits `changes` apply (those from `offset` on), by change index.
    private func prepareEdits(
        _ changes: [ChangeBatchPlan.AssetChange], from offset: Int = 0, state: Attempt, presence: StorePresence? = nil
    ) throws(LibraryError) -> [Int: PreparedEdit] {
        var edits: [Int: PreparedEdit] = [:]
        for index in changes.indices.dropFirst(offset) {
            guard case let .apply(output) = changes[index].edit else { continue }
            edits[index] = try PreparedEdit(output, store: store) { (source: ResourceSource) throws(LibraryError) in
                try self.store(source, state: state, presence: presence)
            }
        }
        return edits
    }

    /// Stores one file of the batch (a moved file is unlinked after the commit; a file stored for
    /// this batch is removed when it fails); a resource already stored must still be there.
    private func store(_ source: ResourceSource, state: Attempt, presence: StorePresence?) throws(LibraryError) -> StoredResource {
        try fault(.storeResource(index: state.storeIndex))
        state.storeIndex += 1
        let stored: StoredResource
        do throws(ResourceStoreError) {
            switch source {
            case let .copy(path):
                stored = try store.store(fileAt: path)
            case let .move(path):
                stored = try store.link(fileAt: path)
                state.movedSources.append(path)
            case let .data(bytes):
                stored = try store.store(data: bytes)
            case let .stored(resource):
                guard presence?.contains(resource.digest) ?? store.contains(resource.digest) else {
                    throw .notFound(resource.digest)
                }
                stored = resource
            }
        } catch {
            if case let .notFound(digest) = error { throw .resourceMissing(digest) }
            throw .store(error)
        }
        if case .stored = source {} else { state.storedDigests.insert(stored.digest) }
        return stored
    }

    /// Writes the batch's rows inside the transaction and returns the outcome.
    private func apply(
        _ plan: ChangeBatchPlan, prepared: [PreparedCreation], edits: [Int: PreparedEdit], writer: any CatalogWriter,
        state: Attempt, now: Date, presence: StorePresence
    ) throws(LibraryError) -> ChangeResult {
        var result = ChangeResult()
        var resolved: [String: String] = [:]
        var inserted: [String] = []
        var updated: [String] = []
        var deleted: [String] = []
        var changedCollections: [String] = []
        var createdInBatch: [PreparedCreation.DuplicateKey: String] = [:]

        // Every file a row will name must still be in the store (a concurrent clean-up holds this same write lock).
        for creation in prepared {
            for resource in creation.resources where !presence.contains(resource.stored.digest) {
                throw .resourceMissing(resource.stored.digest)
            }
        }

        for creation in prepared {
            let key = creation.duplicateKey
            var existing = createdInBatch[key]
            if existing == nil {
                existing = try writer.assetIdentifiers(owner: key.owner, withResources: key.resources).first
            }
            if let existing {
                resolved[creation.creation.placeholder] = existing
                result.assets.append(.existing(existing))
                continue
            }
            try writer.insertAsset(creation.asset)
            for (ordinal, resource) in creation.resources.enumerated() {
                try writer.insertResource(
                    LibraryAssetResource(
                        assetLocalIdentifier: creation.asset.localIdentifier, ordinal: ordinal,
                        type: resource.addition.type, digest: resource.stored.digest, size: resource.stored.size,
                        originalFilename: resource.addition.originalFilename,
                        uniformTypeIdentifier: resource.uniformTypeIdentifier))
            }
            // Queued with the rows: a crash after the commit loses no derivative job.
            try writer.enqueueDerivativeJobs(
                assetIdentifier: creation.asset.localIdentifier, kinds: DerivativeJobKind.kinds(of: creation.asset))
            createdInBatch[key] = creation.asset.localIdentifier
            inserted.append(creation.asset.localIdentifier)
            result.assets.append(.created(creation.asset.localIdentifier))
        }
        let resolve = { (identifier: String) in resolved[identifier] ?? identifier }

        for change in plan.collectionChanges {
            if change.isCreation {
                try writer.insertCollection(
                    AssetCollection(
                        localIdentifier: change.identifier, title: change.title ?? "", creationDate: now, assetCount: 0))
                result.createdCollections.append(change.identifier)
            } else {
                guard try writer.collections(withIdentifiers: [change.identifier])[change.identifier] != nil else {
                    throw .notFound(localIdentifier: change.identifier)
                }
                if let title = change.title { try writer.updateCollectionTitle(change.identifier, title: title) }
            }
            for edit in change.edits {
                let identifiers = edit.identifiers.map(resolve)
                let found = try writer.assets(withIdentifiers: identifiers, includingDeleted: false)
                if let missing = identifiers.first(where: { found[$0] == nil }) {
                    throw .notFound(localIdentifier: missing)
                }
                if edit.adds {
                    _ = try writer.addAssets(identifiers, toCollection: change.identifier)
                } else {
                    _ = try writer.removeAssets(identifiers, fromCollection: change.identifier)
                }
            }
            changedCollections.append(change.identifier)
        }

        for (index, change) in plan.assetChanges.enumerated() {
            let identifier = resolve(change.identifier)
            guard let asset = try writer.assets(withIdentifiers: [identifier], includingDeleted: false)[identifier] else {
                throw .notFound(localIdentifier: identifier)
            }
            let changed = change.applied(to: asset)
            var edited = false
            if let edit = change.edit {
                edited = try EditWriter(writer: writer).write(edit, prepared: edits[index], to: asset, presence: presence) {
                    state.releasedDigests.formUnion($0)
                }
            }
            guard changed != asset || edited else { continue }
            if changed != asset { try writer.updateAsset(changed) }
            if !updated.contains(identifier) && !inserted.contains(identifier) { updated.append(identifier) }
        }

        for identifier in plan.assetDeletions.map(resolve) where !deleted.contains(identifier) {
            changedCollections += try writer.collectionIdentifiers(matching: .containing(assetIdentifier: identifier))
            state.releasedDigests.formUnion(try writer.deleteAsset(identifier))
            deleted.append(identifier)
        }
        for identifier in plan.collectionDeletions {
            try writer.deleteCollection(identifier)
            changedCollections.append(identifier)
        }

        inserted.removeAll { deleted.contains($0) }
        updated.removeAll { deleted.contains($0) }
        var uniqueCollections: [String] = []
        for identifier in changedCollections where !uniqueCollections.contains(identifier) { uniqueCollections.append(identifier) }
        result.deletedAssets = deleted
        if !(inserted.isEmpty && updated.isEmpty && deleted.isEmpty && uniqueCollections.isEmpty) {
            result.changeSequence = try writer.appendChange(
                insertedAssets: inserted, updatedAssets: updated, deletedAssets: deleted,
                changedCollections: uniqueCollections, committedAt: now)
        }
        return result
    }

    /// After the commit: unlinks moved sources, then removes files no row uses any more. A fault
    /// injected here stops the clean-up; the batch stays committed and recovery finishes the work.
    private func finishAfterCommit(_ state: Attempt) {
        for path in state.movedSources {
            do throws(LibraryError) {
                try fault(.unlinkSource(path: path))
            } catch {
                return
            }
            LibraryFileSystem.unlink(path)
        }
        removeUnreferenced(state.releasedDigests.union(state.storedDigests), injectingFaults: true)
    }

    /// The most files one clean-up transaction removes: the write lock is released between
    /// groups, so a large delete never keeps other writers waiting past their busy timeout.
    static let removalBatchSize = 32

    /// Removes the files of `digests` that no row or record names, in groups of
    /// `removalBatchSize`, each holding the catalog's write lock so no batch can start
    /// referencing one meanwhile (the unlinks are flushed after each group's lock is released).
    /// Nothing is removed unless the catalog carries the identity the
    /// library verified at open (a catalog replaced or emptied under a running process never makes
    /// it delete the store). Returns the digests removed; failures leave files for recovery.
    @discardableResult
    func removeUnreferenced(_ digests: Set<ContentDigest>, injectingFaults: Bool) -> Set<ContentDigest> {
        guard !digests.isEmpty, configuration.access == .readWrite, let libraryIdentity else { return [] }
        var removed: Set<ContentDigest> = []
        let sorted = digests.sorted(by: { $0.hex < $1.hex })
        for start in stride(from: 0, to: sorted.count, by: Self.removalBatchSize) {
            let group = sorted[start..<min(start + Self.removalBatchSize, sorted.count)]
            let began = ContinuousClock.now
            let outcome = try? catalog.write(
                { (writer: any CatalogWriter) throws(LibraryError) -> Set<ContentDigest> in
                    guard try writer.libraryIdentity() == libraryIdentity else { return [] }
                    var removedHere: Set<ContentDigest> = []
                    for digest in group where try !writer.isReferenced(digest) {
                        guard store.contains(digest) else { continue }
                        if injectingFaults { try fault(.removeResource(digest)) }
                        do throws(ResourceStoreError) {
                            try store.remove(digest, durability: .deferred)
                            removedHere.insert(digest)
                        } catch {
                            if case .notFound = error { continue }
                            throw .store(error)
                        }
                    }
                    return removedHere
                }, beforeCommit: {})
            guard let outcome else { break }
            removed.formUnion(outcome)
            // Flushed after the lock is released: other writers do not wait for the disk.
            try? store.flushRemovals(Array(outcome))
            if start + Self.removalBatchSize < sorted.count { WriterPacing.yieldLock(after: began) }
        }
        return removed
    }
}
