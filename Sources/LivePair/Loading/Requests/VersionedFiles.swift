import LivePairCore

/// The files a version reads among the files of one asset: an original still and movie, and
/// perhaps the render of its edit (named as Photos and icloudpd name renders: `IMG_E1234.HEIC`,
/// `IMG_1234_edited.MOV`, `IMG_1234-adjusted.JPG`, see `EditGrouping`) and its `.AAE`.
///
/// Without a render among them the files are read as given (the `.AAE` left out). With one,
/// `.current` reads the render in place of the original of the same kind (still or movie), and
/// `.unadjusted` and `.original` read the originals; a kind given only as a render (or only as an
/// original) is read whatever the version.
enum VersionedFiles {
    /// The paths of `paths` that `version` reads, in their given order.
    static func select(_ paths: [String], version: AssetVersion) -> [String] {
        let media = paths.filter { !Self.isAdjustmentData($0) }
        let renders = Set(media.filter(Self.isRender))
        guard !renders.isEmpty else { return media }
        var chosen: Set<String> = []
        for isMovie in [false, true] {
            let ofKind = media.filter { Self.isMovie($0) == isMovie }
            let edited = ofKind.filter { renders.contains($0) }
            let originals = ofKind.filter { !renders.contains($0) }
            let preferred = version == .current ? edited : originals
            chosen.formUnion(preferred.isEmpty ? ofKind : preferred)
        }
        return media.filter { chosen.contains($0) }
    }

    /// True for a file named as an edit's render.
    static func isRender(_ path: String) -> Bool {
        EditGrouping.classify(stem: stem(of: path), isAdjustmentData: false).part == .render
    }

    /// True for a `.AAE` file.
    static func isAdjustmentData(_ path: String) -> Bool { fileExtension(of: path) == "aae" }

    /// True for a movie by its extension (`.mov`, `.mp4`, `.m4v`, `.qt`).
    static func isMovie(_ path: String) -> Bool { ["mov", "mp4", "m4v", "qt"].contains(fileExtension(of: path)) }

    /// The last path component without its extension.
    static func stem(of path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// The extension of the last path component, lowercased ("" when none).
    static func fileExtension(of path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }
}
