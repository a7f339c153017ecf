import LivePairFormats
import LivePairLibrary

/// An edited asset's edit as the API summarises it, read from its adjustment data (the `.AAE`):
/// who made it and, for the formats LivePair reads (Photos' `com.apple.photo`, LivePair's own),
/// the operations and what they set.
struct EditRepresentation: Codable {
    /// One step of the edit.
    struct Operation: Codable {
        var identifier: String
        var enabled: Bool
    }

    /// The kept part of the movie, in seconds.
    struct Trim: Codable {
        var start: Double
        var end: Double
    }

    /// False when the `.AAE` is kept but is not adjustment data LivePair can read (nothing else is set).
    var readable: Bool
    var formatIdentifier: String?
    var formatVersion: String?
    /// The editor's bundle identifier (`adjustmentEditorBundleID`), when recorded.
    var editor: String?
    /// The steps in order; absent for another editor's format (its data is kept opaque).
    var operations: [Operation]?
    /// The key photo's time in the movie, in seconds (`LivePhotoKeyFrame`).
    var keyPhotoTime: Double?
    var trim: Trim?
    var muted: Bool?
    /// `loop`, `bounce` or `longExposure`; absent when the edit sets none.
    var playbackVariation: String?
    /// The sound's volume from 0 to 1 (LivePair's `AudioVolume` step); absent when not set.
    var audioVolume: Double?
    /// The named frame filter (LivePair's `LivePairFilter` step: `invert`, `mono`, or a name this
    /// version does not know, as written); absent when the edit has none.
    var filter: String?

    /// The summary of `sidecar`'s edit.
    init(_ sidecar: AdjustmentSidecar) {
        readable = true
        formatIdentifier = sidecar.adjustmentData.formatIdentifier
        formatVersion = sidecar.adjustmentData.formatVersion
        editor = sidecar.editorBundleID
        guard let recipe = try? sidecar.recipe() else { return }
        operations = recipe.operations.map { Operation(identifier: $0.identifier, enabled: $0.isEnabled) }
        keyPhotoTime = recipe.keyPhotoTime?.seconds
        if let range = recipe.trimRange, let start = range.start.seconds, let end = range.end.seconds {
            trim = Trim(start: start, end: end)
        }
        muted = recipe.isMuted
        if let variation = recipe.playbackVariation, variation != .none { playbackVariation = variation.rawValue }
        audioVolume = recipe.audioVolume
        filter = recipe.filterName
    }

    /// An `.AAE` that cannot be read.
    init(unreadable: Void) { readable = false }

    /// The summary of `asset`'s edit in `library`; nil when it has none.
    static func read(_ asset: Asset, in library: PhotoLibrary) throws(LibraryError) -> EditRepresentation? {
        guard asset.hasAdjustments else { return nil }
        do throws(LibraryError) {
            return try library.adjustmentSidecar(for: asset).map(EditRepresentation.init)
        } catch {
            if case .unreadableResource = error { return EditRepresentation(unreadable: ()) }
            throw error
        }
    }
}
