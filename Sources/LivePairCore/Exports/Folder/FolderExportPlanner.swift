import LivePairFormats

/// Reads a LivePair `folder` export (`library export --layout folder`) back: every file is taken
/// on its own content, as a plain import takes it (the library pairs halves by content identifier
/// and joins edits by name), and each `NAME.json` that is LivePair's own sidecar
/// (`FolderExportSidecar`) gives the files it lists, beside it, what the library had set: the
/// creation date (to the millisecond), place, favourite, hidden flag, caption and albums
/// (docs/exports.md, "LivePair folder exports").
public enum FolderExportPlanner {
    /// The plan for `entries`.
    public static func plan(_ entries: [ExportEntry], limits: ParseLimits = .default) -> TakeoutPlan {
        var plan = ExportPlanner.fileByFile(entries)
        let assetIndex = Dictionary(plan.assets.indices.map { (plan.assets[$0].primaryPath, $0) }, uniquingKeysWith: { first, _ in first })
        let fileIndex = Dictionary(plan.files.indices.map { (plan.files[$0].path, $0) }, uniquingKeysWith: { first, _ in first })
        var albums: [String: Set<String>] = [:]
        for entry in entries {
            guard case let .json(bytes) = entry.content, let file = fileIndex[entry.path],
                let sidecar = FolderExportSidecar(bytes: bytes, limits: limits)
            else { continue }
            let folder = TakeoutPlanningState.folder(entry.path)
            let paths = sidecar.files.map { TakeoutPlanningState.join(folder, $0) }
            let taken = paths.filter { assetIndex[$0] != nil }
            guard let main = taken.first else {
                plan.files[file].reason = "sidecar-without-media"
                continue
            }
            // Every file of the asset says the same, so that whichever of them the library's
            // asset is found by carries the sidecar's metadata.
            for path in taken {
                guard let index = assetIndex[path] else { continue }
                plan.assets[index].sidecar = entry.path
                plan.assets[index].creationDate = sidecar.creationDate
                plan.assets[index].creationDateSource = sidecar.creationDate == nil ? nil : .sidecar
                plan.assets[index].location = sidecar.location
                plan.assets[index].isFavorite = sidecar.isFavorite
                plan.assets[index].isHidden = sidecar.isHidden
                plan.assets[index].caption = sidecar.caption
                plan.assets[index].albums = sidecar.albums.sorted()
            }
            plan.files[file].disposition = .sidecar
            plan.files[file].reason = nil
            plan.files[file].asset = main
            for title in sidecar.albums { albums[title, default: []].insert(main) }
        }
        plan.albums = albums.keys.sorted().map { TakeoutPlan.Album(folder: "", title: $0, members: albums[$0, default: []].sorted()) }
        return plan
    }
}
