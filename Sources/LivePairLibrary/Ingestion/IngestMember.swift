import Dispatch
import Foundation
import Synchronization

/// One stored upload on its way through a group commit: what it is, the keys it may conflict on
/// with other uploads of the same group, and where its result is delivered.
final class IngestMember: Sendable {
    /// What the upload is, as the transaction decides it.
    enum Kind: Sendable {
        /// A motion photo or a plain photo or movie: an asset on its own.
        case standalone(AssetResourceType)
        /// Half of a Live Photo.
        case half(AssetResourceType, contentIdentifier: String)
        /// A render or adjustment data of the edit group `groupKey` (`stem` its normalised stem).
        case editPart(AssetResourceType, groupKey: String, stem: String)
    }

    /// The stored upload.
    let upload: Upload
    /// What it is.
    let kind: Kind
    /// When it arrived (the date of its pending record).
    let receivedAt: Date
    /// For an original with a name: the edit group its edits join (`IngestEditName.groupKey`).
    let editGroupKey: String?
    /// Keys two uploads share when deciding one could change what the other's decision sees
    /// (`owner + digest`, and `owner + content identifier` when it has one). Within one group a
    /// member conflicting with an earlier one waits for the next group: the requests a group makes
    /// are written only after every member is decided, so the later one would not see them.
    let conflictKeys: Set<String>

    private struct Delivery {
        var result: Result<IngestOutcome, LibraryError>?
        var promoted = false
    }

    private let delivery = Mutex(Delivery())
    private let signal = DispatchSemaphore(value: 0)

    init(upload: Upload, kind: Kind, contentIdentifier: String?, receivedAt: Date, editGroupKey: String? = nil) {
        self.upload = upload
        self.kind = kind
        self.receivedAt = receivedAt
        self.editGroupKey = editGroupKey
        var keys: Set<String> = [IngestRecords.join(["digest", upload.owner, upload.resource.digest.hex])]
        if let contentIdentifier { keys.insert(IngestRecords.join(["identifier", upload.owner, contentIdentifier])) }
        if case let .editPart(_, groupKey, _) = kind { keys.insert(groupKey) }
        if let editGroupKey { keys.insert(editGroupKey) }
        conflictKeys = keys
    }

    /// Hands the member its result and wakes its caller.
    func deliver(_ result: Result<IngestOutcome, LibraryError>) {
        delivery.withLock { $0.result = result }
        signal.signal()
    }

    /// Wakes the member's caller to lead the next group.
    func promote() {
        delivery.withLock { $0.promoted = true }
        signal.signal()
    }

    /// Waits until the member has its result (returned) or is promoted to lead (nil).
    func wait() -> Result<IngestOutcome, LibraryError>? {
        signal.wait()
        return delivery.withLock { state in
            if let result = state.result { return result }
            state.promoted = false
            return nil
        }
    }
}
