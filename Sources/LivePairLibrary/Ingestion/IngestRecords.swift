import Foundation

/// How the ingestor keeps its state in the catalog's record table (`CatalogRecord`), so that it
/// commits with the assets it creates.
///
/// - `ingest.pending`: one record per pending half; key `owner + digest + type`, lookup key
///   `owner + content identifier`, digest (keeps the file alive), date of arrival, JSON payload.
/// - `ingest.edit`: one record per waiting part of an edit (a render or `.AAE` whose original has
///   no asset yet); key `owner + digest + type`, lookup key the edit group's (`IngestEditName`),
///   digest (keeps the file alive), date of arrival, the same JSON payload as a pending half
///   (its `contentIdentifier` holds the group's name, `edit:<stem>`).
/// - `ingest.edit-original`: one record per original upload with a name, so a later part of its
///   edit finds it; key `owner + digest`, lookup key the edit group's, no digest (it keeps no file
///   alive), payload the digest in hexadecimal.
/// - `ingest.upload`: one record per upload identifier that made or found an asset; key
///   `owner + upload ID`, the digest uploaded, and the outcome as JSON.
///
/// Owners and identifiers are joined length-prefixed (`5:alice|…`), so no choice of text can make
/// two different owners' keys equal.
enum IngestRecords {
    static let pendingNamespace = "ingest.pending"
    static let uploadNamespace = "ingest.upload"
    static let editNamespace = "ingest.edit"
    static let editOriginNamespace = "ingest.edit-original"

    /// The record of a waiting edit part (`upload.contentIdentifier` is the group's name) in the
    /// edit group `groupKey`.
    static func editRecord(for upload: PendingUpload, groupKey: String) -> CatalogRecord {
        var record = record(for: upload)
        record.namespace = editNamespace
        record.lookupKey = groupKey
        return record
    }

    /// The waiting edit part a record holds; nil for a record this build cannot read.
    static func editPart(_ record: CatalogRecord) -> PendingUpload? {
        var pending = record
        pending.namespace = pendingNamespace
        return pendingUpload(pending)
    }

    /// The record naming the edit group of the original upload `digest` of `owner`.
    static func editOriginRecord(owner: String, digest: ContentDigest, groupKey: String) -> CatalogRecord {
        CatalogRecord(
            namespace: editOriginNamespace, key: editOriginKey(owner: owner, digest: digest), lookupKey: groupKey,
            date: Date(), payload: Array(digest.hex.utf8))
    }

    /// The key of the edit-original record of `digest` of `owner`.
    static func editOriginKey(owner: String, digest: ContentDigest) -> String { join([owner, digest.hex]) }

    /// The original's digest an edit-original record names.
    static func editOriginDigest(_ record: CatalogRecord) -> ContentDigest? {
        ContentDigest(hex: String(decoding: record.payload, as: UTF8.self))
    }

    /// Joins parts unambiguously: each part is written as `<utf8 length>:<text>`, separated by `|`.
    static func join(_ parts: [String]) -> String {
        parts.map { "\($0.utf8.count):\($0)" }.joined(separator: "|")
    }

    /// The lookup key pairing uses: only this owner's halves with this identifier.
    static func pairingKey(owner: String, contentIdentifier: String) -> String {
        join([owner, contentIdentifier])
    }

    /// The record key of a pending half.
    static func pendingKey(owner: String, digest: ContentDigest, type: AssetResourceType) -> String {
        join([owner, digest.hex, type.rawValue])
    }

    /// The record key of an upload identifier.
    static func uploadKey(owner: String, uploadID: String) -> String { join([owner, uploadID]) }

    /// The payload of a pending record.
    struct PendingPayload: Codable {
        var owner: String
        var contentIdentifier: String
        var type: String
        var size: UInt64
        var originalFilename: String?
        var uploadID: String?
    }

    /// The pending record for `upload`.
    static func record(for upload: PendingUpload) -> CatalogRecord {
        let payload = PendingPayload(
            owner: upload.owner, contentIdentifier: upload.contentIdentifier, type: upload.type.rawValue,
            size: upload.resource.size, originalFilename: upload.originalFilename, uploadID: upload.uploadID)
        return CatalogRecord(
            namespace: pendingNamespace,
            key: pendingKey(owner: upload.owner, digest: upload.resource.digest, type: upload.type),
            lookupKey: pairingKey(owner: upload.owner, contentIdentifier: upload.contentIdentifier),
            digest: upload.resource.digest, date: upload.receivedAt, payload: encode(payload))
    }

    /// The pending half a record holds; nil for a record this build cannot read.
    static func pendingUpload(_ record: CatalogRecord) -> PendingUpload? {
        guard record.namespace == pendingNamespace, let digest = record.digest,
            let payload = try? JSONDecoder().decode(PendingPayload.self, from: Data(record.payload)),
            let type = AssetResourceType(rawValue: payload.type)
        else { return nil }
        return PendingUpload(
            owner: payload.owner, contentIdentifier: payload.contentIdentifier, type: type,
            resource: StoredResource(digest: digest, size: payload.size), originalFilename: payload.originalFilename,
            uploadID: payload.uploadID, receivedAt: record.date ?? Date(timeIntervalSince1970: 0))
    }

    /// The payload of an upload record: the outcome the upload got.
    struct UploadPayload: Codable {
        var outcome: String
        var localIdentifier: String?
        var contentIdentifier: String?
    }

    /// The record remembering that `uploadID` of `owner` (bytes `digest`) got `outcome`.
    static func uploadRecord(owner: String, uploadID: String, digest: ContentDigest, outcome: IngestOutcome) -> CatalogRecord? {
        let payload: UploadPayload
        switch outcome {
        case let .accepted(identifier): payload = UploadPayload(outcome: "accepted", localIdentifier: identifier)
        case let .duplicate(identifier): payload = UploadPayload(outcome: "duplicate", localIdentifier: identifier)
        case let .pending(identifier): payload = UploadPayload(outcome: "pending", contentIdentifier: identifier)
        case .rejected: return nil
        }
        // The digest is kept in the payload, not the digest column: an upload record must not keep a file alive.
        return CatalogRecord(
            namespace: uploadNamespace, key: uploadKey(owner: owner, uploadID: uploadID), lookupKey: digest.hex,
            date: Date(), payload: encode(payload))
    }

    /// The outcome an upload record holds.
    static func outcome(_ record: CatalogRecord) -> IngestOutcome? {
        guard let payload = try? JSONDecoder().decode(UploadPayload.self, from: Data(record.payload)) else { return nil }
        switch payload.outcome {
        case "accepted": return payload.localIdentifier.map { .accepted(localIdentifier: $0) }
        case "duplicate": return payload.localIdentifier.map { .duplicate(localIdentifier: $0) }
        case "pending": return payload.contentIdentifier.map { .pending(contentIdentifier: $0) }
        default: return nil
        }
    }

    private static func encode<Payload: Encodable>(_ payload: Payload) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? [UInt8](encoder.encode(payload))) ?? []
    }
}
