import LivePair

/// What an upload's name says about its place in an edit (docs/pairing.md, "Edits"): the
/// original's stem the name belongs to and whether the file is an original, a render
/// (`IMG_E1234`, `IMG_1234_edited`, `IMG_1234-adjusted`) or adjustment data (`IMG_1234.AAE`, the
/// camera's `IMG_O1234.AAE`). Uploads are linked by these names within one folder (the `folder`
/// given to `Ingestor.ingest`; the owner's uploads count as one folder when none is given), never
/// by content identifier: a render carries a new one.
struct IngestEditName: Sendable, Hashable {
    /// The part of an edit group a file is.
    enum Part: Sendable, Hashable {
        /// An original still or movie.
        case original
        /// The rendered still or movie.
        case render
        /// The `.AAE` of Photos' edit.
        case adjustments
        /// The camera's own `.AAE` (`IMG_O1234.AAE`).
        case cameraAdjustments
    }

    /// The group's stem, normalised (`img_1853`).
    var stem: String
    /// The part.
    var part: Part

    /// The name's place, from the upload's file name (nil when it has no stem).
    init?(fileName: String, isAdjustmentData: Bool) {
        let base = fileName.split(separator: "/").last.map(String.init) ?? fileName
        let stem = base.lastIndex(of: ".").map { String(base[..<$0]) } ?? base
        guard !stem.isEmpty else { return nil }
        let (groupStem, part) = EditGrouping.classify(stem: stem, isAdjustmentData: isAdjustmentData)
        self.stem = groupStem
        switch part {
        case .original: self.part = .original
        case .render: self.part = .render
        case .adjustments:
            self.part = groupStem == StemNormalizer.normalize(stem) ? .adjustments : .cameraAdjustments
        }
    }

    /// The key every part of this group shares: `owner`, `folder` and stem.
    func groupKey(owner: String, folder: String?) -> String {
        IngestRecords.join(["edit", owner, folder ?? "", stem])
    }
}
