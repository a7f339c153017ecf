import Foundation
import LivePair

extension Ingestor {
    /// What a group's transaction decided for one member.
    enum MemberDecision {
        /// A creation request (a standalone asset, or a linked pair) at this index of the batch's requests.
        case created(requestIndex: Int)
        /// A Live Photo half decided without a new request.
        case half(HalfDecision)
        /// A render or `.AAE` of an edit.
        case edit(EditDecision)
    }

    /// The state of one attempt at a group's transaction (the executor may run the hooks again).
    final class GroupAttempt: @unchecked Sendable {
        // Sendable: used only on the thread running the group's performChangesAndWait.
        var decided: [(IngestMember, MemberDecision)] = []
        var deferred: [IngestMember] = []
        var outcomes: [IngestOutcome] = []

        func reset() {
            decided = []
            deferred = []
            outcomes = []
        }
    }

    /// Decides `members` together and delivers each decided member's result:
    ///
    /// 1. one flush of every member's stored file (`ResourceStore.flush`, fault point
    ///    `ingest-flush-group`), so every file the transaction will name is durable before it commits;
    /// 2. one catalog transaction deciding each member in turn (a member that conflicts with an
    ///    earlier one is deferred to the next group and returned);
    /// 3. after the commit, rejected members' files are released, then results are delivered.
    ///
    /// When the group fails, each member is decided again on its own, so one failing upload does
    /// not fail the others; a member that fails alone gets its error, and its stored file is
    /// removed at once unless something committed uses it.
    func commitGroup(_ members: [IngestMember]) -> [IngestMember] {
        let attempt = GroupAttempt()
        do throws(LibraryError) {
            try FaultInjection.inject(.custom("ingest-flush-group"), library.configuration.faultInjector)
            do throws(ResourceStoreError) {
                try library.store.flush(members.map(\.upload.resource.digest))
            } catch {
                if case let .notFound(digest) = error { throw LibraryError.resourceMissing(digest) }
                throw LibraryError.store(error)
            }
            try library.performChangesAndWait(
                { _ in },
                inTransaction: { (transaction: CatalogTransaction) throws(LibraryError) in
                    attempt.reset()
                    var keys: Set<String> = []
                    for member in members {
                        let conflicts = !member.conflictKeys.isDisjoint(with: keys)
                        keys.formUnion(member.conflictKeys)
                        if conflicts {
                            attempt.deferred.append(member)
                            continue
                        }
                        guard transaction.isStored(member.upload.resource.digest) else {
                            throw .resourceMissing(member.upload.resource.digest)
                        }
                        try self.checkUploadID(of: member.upload, in: transaction)
                        attempt.decided.append((member, try self.decide(member, in: transaction)))
                    }
                },
                afterApplying: { (transaction: CatalogTransaction, result: ChangeResult) throws(LibraryError) in
                    attempt.outcomes = []
                    for (member, decision) in attempt.decided {
                        let outcome = try Self.outcome(of: decision, member: member, result: result)
                        attempt.outcomes.append(outcome)
                        try self.remember(outcome, of: member.upload, in: transaction)
                        // An original's asset, made or completed now: the parts of its edit that waited join it.
                        if case .edit = decision {} else if let identifier = outcome.localIdentifier {
                            try self.attachWaitingEdits(toAsset: identifier, owner: member.upload.owner, in: transaction)
                        }
                    }
                })
        } catch {
            guard members.count == 1, let member = members.first else {
                for member in members { _ = commitGroup([member]) }
                return []
            }
            // Nothing committed names the upload's file (the transaction rolled back, even when
            // its COMMIT failed): remove it now, unless another committed row or record uses it.
            releaseIfUnused(member.upload.resource.digest)
            if case let .invalidLivePhoto(findings) = error {
                // The pair does not validate: refuse this half; the partner stays pending.
                member.deliver(.success(.rejected(findings)))
            } else {
                member.deliver(.failure(error))
            }
            return []
        }
        let rejected = zip(attempt.decided, attempt.outcomes).compactMap { entry, outcome -> ContentDigest? in
            if case .rejected = outcome { return entry.0.upload.resource.digest }
            return nil
        }
        if !rejected.isEmpty { library.executor.removeUnreferenced(Set(rejected), injectingFaults: false) }
        for ((member, _), outcome) in zip(attempt.decided, attempt.outcomes) { member.deliver(.success(outcome)) }
        return attempt.deferred
    }

    /// Decides one member inside the group's transaction.
    private func decide(_ member: IngestMember, in transaction: CatalogTransaction) throws(LibraryError) -> MemberDecision {
        let requestIndex = transaction.changes.assetCreations.count
        try recordEditOriginal(member, in: transaction)
        switch member.kind {
        case let .editPart(type, groupKey, stem):
            return .edit(try decideEditPart(member, type: type, groupKey: groupKey, stem: stem, in: transaction))
        case let .standalone(type):
            try transaction.injectFault(.custom("ingest-link-asset"))
            let request = transaction.changes.creationRequestForAsset()
            request.owner = member.upload.owner
            request.addResource(
                with: type, storedResource: member.upload.resource, options: member.upload.creationOptions,
                localCopy: member.upload.localCopy)
            return .created(requestIndex: requestIndex)
        case let .half(type, contentIdentifier):
            let pending = PendingUpload(
                owner: member.upload.owner, contentIdentifier: contentIdentifier, type: type, resource: member.upload.resource,
                originalFilename: member.upload.originalFilename, uploadID: member.upload.uploadID,
                receivedAt: member.receivedAt)
            let decision = try decide(pending, upload: member.upload, in: transaction)
            if case .linked = decision { return .created(requestIndex: requestIndex) }
            return .half(decision)
        }
    }

    /// The outcome a member's decision gives, once the batch's rows are written.
    private static func outcome(
        of decision: MemberDecision, member: IngestMember, result: ChangeResult
    ) throws(LibraryError) -> IngestOutcome {
        switch decision {
        case let .created(index):
            guard index < result.assets.count else { throw .invalidRequest("the ingest batch created nothing") }
            let asset = result.assets[index]
            return asset.isExisting
                ? .duplicate(localIdentifier: asset.localIdentifier) : .accepted(localIdentifier: asset.localIdentifier)
        case let .half(.duplicate(identifier)):
            return .duplicate(localIdentifier: identifier)
        case .half(.pending), .half(.linked):
            guard case let .half(_, contentIdentifier) = member.kind else { throw .invalidRequest("not a Live Photo half") }
            return .pending(contentIdentifier: contentIdentifier)
        case let .half(.attached(identifier)):
            return .accepted(localIdentifier: identifier)
        case let .half(.rejected(findings)):
            return .rejected(findings)
        case let .edit(.pending(group)):
            return .pending(contentIdentifier: group)
        case let .edit(.attached(identifier)):
            return .accepted(localIdentifier: identifier)
        case let .edit(.duplicate(identifier)):
            return .duplicate(localIdentifier: identifier)
        }
    }
}
