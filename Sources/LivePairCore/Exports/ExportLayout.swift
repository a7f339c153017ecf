/// How an export's files are laid out, which says how sidecars, albums and names are read.
public enum ExportLayout: String, Sendable, Equatable, CaseIterable {
    /// Files as they are: no sidecars, no albums (every file taken on its own content).
    case plain
    /// Google Takeout: `Takeout/Google Photos/<album or Photos from YYYY>/` with JSON sidecars.
    case takeout
    /// Apple's iCloud Photos export (data and privacy): `Photos/` with `Photo Details*.csv`,
    /// `Albums/<title>.csv`, `Memories/`.
    case icloud
    /// An icloudpd mirror: originals with `IMG_1234_HEVC.MOV` (or `IMG_1234.MOV`) movies and
    /// `-adjusted` renders; what ties them survives in the files.
    case icloudpd
    /// Image Capture, AirDrop or a Windows import: `IMG_1234.*`, `IMG_E1234.*` renders, `.AAE` edits.
    case imageCapture = "image-capture"
    /// A Samsung Smart Switch backup: `DCIM/Camera/YYYYMMDD_HHMMSS.jpg` motion photos (the movie
    /// embedded, SEF trailer), `_edited`-style copies; a PC backup holds the gallery under
    /// `<backup time in ms>/PHOTO/` (docs/exports.md).
    case smartSwitch = "smart-switch"
    /// A LivePair `folder` export (`library export --layout folder`): the files as stored and a
    /// `NAME.json` per asset (`FolderExportSidecar`) with what the library had set.
    case folder

    /// The names accepted by `--layout`, as a usage message lists them.
    public static let names = allCases.map(\.rawValue).joined(separator: ", ")

    /// Whether the layout's files carry metadata outside the media (sidecars, CSV files, album
    /// folders) that an `ExportPlan` reads; the others are read file by file, on their content.
    /// (LivePair's own `folder` sidecars are read by `import` only: `pair` and `validate` read
    /// its files on their content, which ties them.)
    public var hasSidecars: Bool { self == .takeout || self == .icloud }

    /// Whether `import` reads the export through its plan: a layout with sidecars, or a LivePair
    /// `folder` export (whose sidecars hold what the library had set).
    public var importsThroughPlan: Bool { hasSidecars || self == .folder }

    /// The layout of a tree given by its paths (folders or archive members), first rule that holds:
    /// `takeout` when a path runs through `Takeout/Google Photos/` (or a localised `Google Fotos`);
    /// `folder` when a file `M.json` beside a file `M` is LivePair's own folder sidecar
    /// (`isFolderSidecar`, given the JSON's path; by default the file is read from disk, only the
    /// first such candidate); `icloud` when a file is named `Photo Details*.csv`; `icloudpd` when a movie is named
    /// `*_HEVC.MOV` or a file `*-adjusted.*`; `image-capture` when there is an `.AAE`;
    /// `smart-switch` when a path runs through `DCIM/Camera/` with Samsung's
    /// `YYYYMMDD_HHMMSS` names (also `YYYYMMDD_HHMMSS_IMG_1234.HEIC`, an iPhone's Live Photo
    /// that Smart Switch made a motion photo), or through a Smart Switch PC backup's
    /// `<13-digit backup time>/PHOTO/` or `/PHOTO_ORIGIN/`; else `plain`.
    public static func detect(
        paths: some Sequence<String>, isFolderSidecar: (String) -> Bool = FolderExportSidecar.isSidecarFile
    ) -> ExportLayout {
        var found: Set<ExportLayout> = []
        let all = Array(paths)
        var names: Set<String>?
        var folderChecked = false
        for path in all {
            let components = path.split(separator: "/")
            for (index, component) in components.enumerated().dropLast() where component == "Takeout" {
                if index + 1 < components.count, ["Google Photos", "Google Fotos"].contains(components[index + 1]) {
                    return .takeout
                }
            }
            guard let name = components.last.map(String.init) else { continue }
            let lower = name.lowercased()
            if !folderChecked, lower.hasSuffix(".json"), lower.count > 5 {
                names = names ?? Set(all)
                if names?.contains(String(path.dropLast(5))) == true {
                    folderChecked = true
                    if isFolderSidecar(path) { found.insert(.folder) }
                }
            }
            if lower.hasPrefix("photo details"), lower.hasSuffix(".csv") { found.insert(.icloud) }
            if lower.hasSuffix("_hevc.mov") || lower.contains("-adjusted.") { found.insert(.icloudpd) }
            if lower.hasSuffix(".aae") { found.insert(.imageCapture) }
            if components.count >= 3, components[components.count - 3] == "DCIM", components[components.count - 2] == "Camera",
                isSamsungName(name)
            {
                found.insert(.smartSwitch)
            }
            if isSmartSwitchBackupPath(components) { found.insert(.smartSwitch) }
        }
        for layout in [ExportLayout.folder, .icloud, .icloudpd, .imageCapture, .smartSwitch] where found.contains(layout) {
            return layout
        }
        return .plain
    }

    /// Whether a path runs through a Smart Switch PC backup's gallery folders:
    /// `SM-S921N_…/1757590576343/PHOTO/DCIM/Camera/…` (the folder named by the backup's time in
    /// milliseconds since 1970, then `PHOTO` or `PHOTO_ORIGIN`).
    static func isSmartSwitchBackupPath(_ components: [Substring]) -> Bool {
        for index in components.indices.dropLast(2) where ["PHOTO", "PHOTO_ORIGIN"].contains(components[index + 1]) {
            let time = components[index]
            if time.count == 13, time.allSatisfy({ ("0"..."9").contains($0) }) { return true }
        }
        return false
    }

    /// `20230323_101938.jpg`, `20230323_101938(0).mp4`: Samsung's camera names.
    static func isSamsungName(_ name: String) -> Bool {
        let characters = Array(name.prefix(15))
        guard characters.count == 15, characters[8] == "_" else { return false }
        return characters.enumerated().allSatisfy { $0.offset == 8 || ("0"..."9").contains($0.element) }
    }
}
