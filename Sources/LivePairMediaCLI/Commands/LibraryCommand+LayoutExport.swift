import LivePair
import LivePairCLI
import LivePairLibrary

extension LibraryCommand {
    /// The options of `library export --layout` (and of `migrate`, which passes them on).
    static let layoutExportOptions: Set<String> = ["layout", "albums", "album", "since", "still"]

    /// The layout export's options from the arguments, or why they do not fit. `--for-photos`
    /// without an asset identifier is `--layout apple-photos`.
    static func layoutExportOptions(
        _ options: [String: String], forPhotos: Bool
    ) -> Result<LayoutExportOptions, UsageError> {
        let layoutName = options["layout"] ?? (forPhotos ? LayoutExportOptions.Layout.applePhotos.rawValue : nil)
        guard let layoutName else { return .failure(UsageError("Missing expected option '--layout apple-photos|google-photos|folder'.")) }
        guard let layout = LayoutExportOptions.Layout(rawValue: layoutName) else {
            return .failure(UsageError("--layout takes apple-photos, google-photos or folder; got '\(layoutName)'."))
        }
        if forPhotos, layout != .applePhotos {
            return .failure(UsageError("--for-photos is --layout apple-photos; it cannot go with --layout \(layoutName)."))
        }
        var result = LayoutExportOptions(layout: layout)
        if let text = options["albums"] {
            guard let arrangement = LayoutExportOptions.AlbumArrangement(rawValue: text) else {
                return .failure(UsageError("--albums takes folders or flat; got '\(text)'."))
            }
            result.albums = arrangement
        }
        result.album = options["album"]
        if let text = options["since"] {
            guard let date = LayoutExportOptions.sinceDate(text) else {
                return .failure(UsageError("--since takes a date (2024-05-01) or an ISO 8601 time (2024-05-01T12:00:00Z); got '\(text)'."))
            }
            result.since = date
        }
        if let text = options["still"] {
            guard layout == .googlePhotos else { return .failure(UsageError("--still is only for --layout google-photos.")) }
            switch text {
            case "heic": result.stillEncoding = .heic
            case "jpeg", "jpg": result.stillEncoding = .jpeg
            default: return .failure(UsageError("--still takes heic or jpeg; got '\(text)'."))
            }
        }
        return .success(result)
    }

    /// `library export --layout LAYOUT --output DIR`: the library (or `--album`, `--since`) in a layout.
    static func layoutExport(
        _ library: PhotoLibrary, options: LayoutExportOptions, output: String, json: Bool, quiet: Bool, streams: OutputStreams
    ) throws(LibraryError) -> ExitCode {
        let total = try library.fetchAssets(with: FetchOptions(includeHiddenAssets: true)).count
        let progress = ProgressReporter.longWork(
            streams: streams, label: "library export", unit: "assets", total: options.album == nil && options.since == nil ? total : 0,
            quiet: quiet)
        defer { progress.finish() }
        let report = try LibraryLayoutExporter(library: library, options: options, output: output)
            .run(advance: { progress.advance() })
        progress.finish()
        if json {
            streams.print(report.json().rendered())
        } else {
            streams.print(report.text(), terminator: "")
        }
        return report.failedCount == 0 ? .success : .failure
    }
}
