/// How an export's files are laid out, which says how sidecars, albums and names are read.
public enum ExportLayout: String, Sendable, Equatable, CaseIterable {
    /// Files as they are: no sidecars, no albums (every file taken on its own content).
    case plain
    /// Google Takeout: `Takeout/Google Photos/<album or Photos from YYYY>/` with JSON sidecars.
    case takeout

    /// The layout of a tree given by its paths (folders or archive members): `takeout` when a path
    /// runs through `Takeout/Google Photos/` (or a localised `Google Fotos`), else `plain`.
    public static func detect(paths: some Sequence<String>) -> ExportLayout {
        for path in paths {
            let components = path.split(separator: "/")
            for (index, component) in components.enumerated().dropLast() where component == "Takeout" {
                if index + 1 < components.count, ["Google Photos", "Google Fotos"].contains(components[index + 1]) {
                    return .takeout
                }
            }
        }
        return .plain
    }
}
