import Dispatch
import Foundation
import LivePair
import LivePairFormats
public import LivePairLogging

/// Takes uploaded files one at a time, in any order, from concurrent callers and several
/// processes, and turns them into library assets, as a photo backend's upload endpoint needs:
///
/// - a motion photo, or a photo or movie without a content identifier, becomes an asset at once;
/// - half of a Live Photo is stored and kept as *pending* (a catalog record, so it survives
///   restarts) until the other half of the same owner with the same content identifier arrives;
///   the second half links both into one validated Live Photo asset, in the transaction that also
///   clears the pending record. Pairing never crosses owners.
/// - uploading the same bytes again (a retry) never stores a second copy and gives the same answer:
///   still pending, or the asset that has them (`duplicate`, or `accepted` again when the retry
///   carries the upload ID that created the asset).
///
/// Uploads arriving together share their durability work (group commit): their files are stored
/// without a flush each, then one flush makes the group's files durable, then one catalog
/// transaction decides every upload of the group, and each outcome is returned only after that
/// commit. So a crash at any point leaves either nothing (unreferenced files that recovery removes;
/// the client retries) or the complete result. See `docs/ingestion.md`.
public final class Ingestor: Sendable {
    /// The library uploads go to.
    public let library: PhotoLibrary
    /// Policies and ages.
    public let options: IngestOptions
    let identifier = ResourceIdentifier()
    /// Where concurrent uploads wait to be decided together.
    let committer: IngestGroupCommitter
    /// Where its decisions are logged (one line per upload: outcome, owner hash, upload ID).
    public let logger: Logger

    /// An ingestor for `library`, logging its decisions through `logger` (by default the
    /// logging system's handler, which drops them until the host bootstraps one).
    public init(
        library: PhotoLibrary, options: IngestOptions = IngestOptions(), logger: Logger = Logger(label: "livepair.ingestor")
    ) {
        self.library = library
        self.options = options
        self.logger = logger
        committer = IngestGroupCommitter(maximumGroupSize: options.maximumGroupSize)
    }

    /// Ingests the uploaded file at `path` for `owner`.
    ///
    /// The file is stored without a flush of its own; concurrent calls are then decided together
    /// (group commit): one flush of the group's files, one catalog transaction, and each call
    /// returns its outcome once that transaction has committed.
    ///
    /// - Parameters:
    ///   - path: the uploaded file; copied and left unchanged, or taken over (hard-linked into the
    ///     store and unlinked after the commit) when `options.uploadHandling` is `.move`.
    ///   - owner: the tenant or user; pairing and deduplication stay within one owner.
    ///   - originalFilename: the name the client gave (kept as data, never used as a path).
    ///   - uploadID: the client's identifier for this upload, to recognise retries.
    ///   - knownContent: the file's digest and size when the caller computed them while writing
    ///     the file (a server hashing an upload as it spools it), so the store does not read it
    ///     again to hash it (see `ResourceStore.link(fileAt:knownContent:durability:)`). Only for
    ///     a file the caller wrote itself and that nothing writes any more; used in move mode.
    ///   - folder: the folder the client's file was in (a path, as data): an edit's render and
    ///     `.AAE` join their original by name within one folder (docs/editing.md); nil counts all
    ///     of the owner's uploads as one folder.
    public func ingest(
        fileAt path: String, owner: String, originalFilename: String? = nil, uploadID: String? = nil,
        knownContent: StoredResource? = nil, folder: String? = nil
    ) throws(LibraryError) -> IngestOutcome {
        let name = originalFilename ?? uploadID ?? "upload"
        let identity = identifyUpload(path, originalFilename: originalFilename)
        let editName = originalFilename.flatMap { IngestEditName(fileName: $0, isAdjustmentData: identity.role == .adjustmentData) }
        let classification = UploadClassification(identity, name: name, editName: editName, options: options)
        if case let .rejected(findings) = classification {
            logDecision(.rejected(findings), owner: owner, uploadID: uploadID)
            return .rejected(findings)
        }
        if options.decodesMedia {
            let fileName = path.split(separator: "/").last.map(String.init) ?? path
            let deep = Validator.mediaDeepValidation(options: ValidationOptions(deep: true))
            let undecodable = Validator.decodeFindings(for: identity, using: deep).map { finding in
                Finding(
                    code: finding.code, severity: finding.severity, path: name,
                    message: finding.message.replacingOccurrences(of: fileName, with: name), hint: finding.hint)
            }
            if !undecodable.isEmpty {
                logDecision(.rejected(undecodable), owner: owner, uploadID: uploadID)
                return .rejected(undecodable)
            }
        }

        var attempt = 0
        while true {
            attempt += 1
            do throws(LibraryError) {
                let outcome = try storeAndDecide(
                    path, classification: classification, identity: identity, owner: owner,
                    originalFilename: originalFilename, uploadID: uploadID, name: name, knownContent: knownContent,
                    edit: editName.map { ($0, $0.groupKey(owner: owner, folder: folder)) })
                finishMove(of: path, outcome: outcome)
                logDecision(outcome, owner: owner, uploadID: uploadID)
                return outcome
            } catch {
                // The stored file was removed (a concurrent clean-up of a rejected identical upload)
                // before the transaction could use it: store it again.
                guard case .resourceMissing = error, attempt < 3 else { throw error }
            }
        }
    }

    /// The identity of the upload at `path`. An `.AAE` is known by its name, and a server spools
    /// uploads under names of its own: a file not otherwise recognised whose original name ends
    /// in `.AAE` is read as adjustment data.
    func identifyUpload(_ path: String, originalFilename: String?) -> ResourceIdentity {
        let identity = identifier.identify(path: path)
        guard identity.role == .unknown, let originalFilename, originalFilename.lowercased().hasSuffix(".aae"),
            let source = try? FileByteSource(path: path)
        else { return identity }
        var named = identifier.identify(source: source, path: originalFilename)
        named.path = identity.path
        return named
    }

    /// Stores the upload (not yet flushed) and has it decided in a group commit.
    private func storeAndDecide(
        _ path: String, classification: UploadClassification, identity: ResourceIdentity, owner: String,
        originalFilename: String?, uploadID: String?, name: String, knownContent: StoredResource?,
        edit: (name: IngestEditName, groupKey: String)?
    ) throws(LibraryError) -> IngestOutcome {
        switch try stage(
            path, classification: classification, identity: identity, owner: owner, originalFilename: originalFilename,
            uploadID: uploadID, name: name, knownContent: knownContent, edit: edit)
        {
        case let .decided(outcome):
            return outcome
        case let .waiting(member):
            return try committer.submit(member) { self.commitGroup($0) }.get()
        }
    }

    /// What storing an upload led to.
    enum Staged {
        /// Already decided (a retry whose outcome is committed, or a rejection).
        case decided(IngestOutcome)
        /// Stored, waiting for its group.
        case waiting(IngestMember)
    }

    /// Stores the upload without a flush (copied, or hard-linked in move mode, not hashed again
    /// when its content is known) and makes its group member; `edit` is what its name says about
    /// an edit, with the group's key.
    func stage(
        _ path: String, classification: UploadClassification, identity: ResourceIdentity, owner: String,
        originalFilename: String?, uploadID: String?, name: String, knownContent: StoredResource? = nil,
        edit: (name: IngestEditName, groupKey: String)? = nil
    ) throws(LibraryError) -> Staged {
        try FaultInjection.inject(.custom("ingest-store-upload"), library.configuration.faultInjector)
        // Taken before the store reads the file: the new asset is read from it while it stays unchanged.
        let localCopy = LocalCopy(path: path)
        let stored: StoredResource
        do throws(ResourceStoreError) {
            switch options.uploadHandling {
            case .copy: stored = try library.store.store(fileAt: path, durability: .deferred)
            case .move:
                if let knownContent {
                    stored = try library.store.link(fileAt: path, knownContent: knownContent, durability: .deferred)
                } else {
                    stored = try library.store.link(fileAt: path, durability: .deferred)
                }
            }
        } catch {
            throw .store(error)
        }
        if let uploadID, let previous = try previousOutcome(owner: owner, uploadID: uploadID, digest: stored.digest) {
            return .decided(previous)
        }
        let upload = Upload(
            owner: owner, resource: stored, originalFilename: originalFilename, uploadID: uploadID, name: name,
            uniformTypeIdentifier: UniformTypeIdentifiers.identifier(for: identity.format), localCopy: localCopy)
        let kind: IngestMember.Kind
        switch classification {
        case let .standalone(type):
            kind = .standalone(type)
        case let .livePhotoHalf(type, contentIdentifier):
            kind = .half(type, contentIdentifier: contentIdentifier)
        case let .editPart(type):
            guard let edit else { return .decided(.rejected([])) }
            kind = .editPart(type, groupKey: edit.groupKey, stem: edit.name.stem)
        case let .rejected(findings):
            return .decided(.rejected(findings))
        }
        let originalGroup = edit?.name.part == .original ? edit?.groupKey : nil
        return .waiting(
            IngestMember(
                upload: upload, kind: kind, contentIdentifier: identity.contentIdentifier?.rawValue, receivedAt: Date(),
                editGroupKey: originalGroup))
    }

    /// In move mode, unlinks the upload once its outcome is committed and the store holds its bytes
    /// (accepted, pending, duplicate). After the commit, so a fault here (`ingest-unlink-upload`)
    /// only leaves the upload in place.
    func finishMove(of path: String, outcome: IngestOutcome) {
        guard options.uploadHandling == .move else { return }
        if case .rejected = outcome { return }
        do throws(LibraryError) {
            try FaultInjection.inject(.custom("ingest-unlink-upload"), library.configuration.faultInjector)
        } catch {
            return
        }
        _ = LibraryFileSystem.unlink(path)
    }

    /// `ingest(fileAt:owner:originalFilename:uploadID:)` off the caller's task.
    public func ingest(
        fileAt path: String, owner: String, originalFilename: String? = nil, uploadID: String? = nil, folder: String? = nil
    ) async throws(LibraryError) -> IngestOutcome {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<IngestOutcome, LibraryError>, Never>) in
            DispatchQueue.global(qos: .userInitiated).async {
                do throws(LibraryError) {
                    continuation.resume(
                        returning: .success(
                            try self.ingest(
                                fileAt: path, owner: owner, originalFilename: originalFilename, uploadID: uploadID,
                                folder: folder)))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    // MARK: - Upload IDs

    /// What an earlier upload of `owner` under `uploadID` was (the SHA-256 of its bytes, in hex)
    /// and the outcome it got, when it made or found an asset that is still there or is pending
    /// (a rejected upload is not remembered). A caller can refuse the same ID with other bytes.
    public func recordedUpload(owner: String, uploadID: String) throws(LibraryError) -> (sha256: String, outcome: IngestOutcome)? {
        try library.readCatalog { (reader: any CatalogReader) throws(LibraryError) -> (sha256: String, outcome: IngestOutcome)? in
            try Self.recordedUpload(owner: owner, uploadID: uploadID, in: reader)
        }
    }

    /// `recordedUpload(owner:uploadID:)` read with `reader` (in a transaction: after every commit before it).
    static func recordedUpload(owner: String, uploadID: String, in reader: any CatalogReader) throws(LibraryError)
        -> (sha256: String, outcome: IngestOutcome)?
    {
        guard
            let record = try reader.record(
                namespace: IngestRecords.uploadNamespace, key: IngestRecords.uploadKey(owner: owner, uploadID: uploadID)),
            let digest = record.lookupKey, let outcome = IngestRecords.outcome(record)
        else { return nil }
        switch outcome {
        case let .accepted(identifier), let .duplicate(identifier):
            return try reader.assets(withIdentifiers: [identifier], includingDeleted: false)[identifier] != nil ? (digest, outcome) : nil
        case .pending, .rejected:
            return (digest, outcome)
        }
    }

    /// Throws `uploadConflict` when `upload`'s ID already names other bytes of its owner whose
    /// outcome stands. Run in the ingest transaction, which on both catalogs follows every commit
    /// before it (SQLite's single writer; PostgreSQL's catalog lock), so two nodes receiving one ID
    /// at once cannot both pass.
    func checkUploadID(of upload: Upload, in transaction: CatalogTransaction) throws(LibraryError) {
        guard let uploadID = upload.uploadID,
            let recorded = try Self.recordedUpload(owner: upload.owner, uploadID: uploadID, in: transaction.catalog),
            recorded.sha256 != upload.resource.digest.hex
        else { return }
        throw .uploadConflict(uploadID: uploadID, first: recorded.outcome)
    }

    /// The outcome an earlier upload with the same ID and the same bytes got, when its asset or
    /// pending record is still there.
    private func previousOutcome(owner: String, uploadID: String, digest: ContentDigest) throws(LibraryError) -> IngestOutcome? {
        try library.readCatalog { (reader: any CatalogReader) throws(LibraryError) -> IngestOutcome? in
            guard
                let record = try reader.record(
                    namespace: IngestRecords.uploadNamespace, key: IngestRecords.uploadKey(owner: owner, uploadID: uploadID)),
                record.lookupKey == digest.hex, let outcome = IngestRecords.outcome(record)
            else { return nil }
            switch outcome {
            case let .accepted(identifier), let .duplicate(identifier):
                return try reader.assets(withIdentifiers: [identifier], includingDeleted: false)[identifier] != nil ? outcome : nil
            case .pending, .rejected:
                return nil  // pending may have been linked since: decide again
            }
        }
    }

    /// Records `outcome` under the upload's ID (in the same transaction), so a retry gets it again.
    func remember(_ outcome: IngestOutcome, of upload: Upload, in transaction: CatalogTransaction) throws(LibraryError) {
        guard let uploadID = upload.uploadID,
            let record = IngestRecords.uploadRecord(
                owner: upload.owner, uploadID: uploadID, digest: upload.resource.digest, outcome: outcome)
        else { return }
        try transaction.injectFault(.custom("ingest-upload-record"))
        try transaction.catalog.putRecord(record)
    }
}

/// One stored upload on its way through the ingestor.
struct Upload: Sendable {
    var owner: String
    var resource: StoredResource
    var originalFilename: String?
    var uploadID: String?
    /// How findings name it.
    var name: String
    var uniformTypeIdentifier: String?
    /// The uploaded file as it was when stored (it stays in place until the commit): the new
    /// asset is identified from it rather than read back from the store.
    var localCopy: LocalCopy?

    /// The options its resource is added with: the original name as data only.
    var creationOptions: AssetResourceCreationOptions {
        AssetResourceCreationOptions(originalFilename: originalFilename, uniformTypeIdentifier: uniformTypeIdentifier)
    }
}

/// Carries the outcome decided inside the transaction out of it (the closures run synchronously,
/// on the calling thread, before `performChangesAndWait` returns).
final class OutcomeBox: @unchecked Sendable {
    // Sendable: written and read only on the thread running performChangesAndWait.
    var outcome: IngestOutcome = .rejected([])
}
