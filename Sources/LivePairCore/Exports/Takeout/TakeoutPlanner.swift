public import LivePairFormats

/// Turns the files of a Google Takeout export (folders, or archive parts merged into one tree)
/// into assets, albums and an end for every file (docs/exports.md).
///
/// Per folder: JSON sidecars are tied to their files by name (`TakeoutSidecarMatcher`); files
/// whose sidecar says `trashed` are left out (reported); `-edited` renders join their original;
/// the rest pair as `Pairing` pairs them (content identifiers, duplicates, motion photos), then
/// halves left without a partner pair by stem and capture time within `pairingTolerance` seconds.
/// A loose movie equal to a motion photo's embedded video is that photo's duplicate. One asset
/// found in several folders (an album folder and `Photos from YYYY`: the same bytes for
/// archive members, the same names and sizes for files in folders) is one asset in every album
/// whose folder holds it.
///
/// Metadata: the sidecar's `photoTakenTime` is the creation date when there is one (it is what
/// Google Photos showed, date edits included); else the file's own capture date. The sidecar's
/// `geoData` is the location when not 0,0, else the file's. `favorited`, `archived` (hidden) and
/// `description` (caption) come from the sidecar.
public enum TakeoutPlanner {
    /// The largest capture-time difference, in seconds, at which halves without a common
    /// identifier pair by stem.
    public static let pairingTolerance = 2.0

    /// The plan for `entries`; `contents` opens files for the duplicate checks (an entry read
    /// from an archive cannot be opened again and counts as different from every other file).
    public static func plan(
        _ entries: [ExportEntry], contents: any ResourceContentSource = FileContentSource(), limits: ParseLimits = .default
    ) -> TakeoutPlan {
        var state = TakeoutPlanningState(entries: entries, limits: limits)
        state.tieSidecars()
        state.setAsideTrashedAndRenders()
        state.pairFolders(contents: contents)
        state.foldSplitMotionVideos()
        state.mergeCopies()
        return state.finish()
    }
}
