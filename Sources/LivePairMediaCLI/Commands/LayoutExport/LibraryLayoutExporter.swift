import Foundation
import LivePair
import LivePairCLI
import LivePairCore
import LivePairFormats
import LivePairLibrary

/// `library export --layout`: writes a library's assets (all, one album's, or those created since a
/// date) as Apple's Photos, Google Photos or a plain folder takes them (docs/exports.md, "Export
/// layouts"). Each file is written atomically; an asset that fails has the files it had written
/// removed and is reported, and the others go on.
struct LibraryLayoutExporter {
    /// The library read.
    let library: PhotoLibrary
    /// What to write.
    let options: LayoutExportOptions
    /// The output folder (no trailing slash).
    let output: String
    /// Where stored bytes are read.
    private let manager: AssetResourceManager

    /// An exporter of `library` into `output`.
    init(library: PhotoLibrary, options: LayoutExportOptions, output: String) {
        self.library = library
        self.options = options
        self.output = output.count > 1 && output.hasSuffix("/") ? String(output.dropLast()) : output
        self.manager = AssetResourceManager(library: library)
    }

    /// The folder of google-photos' tree under the output, as Takeout names it (so `import` finds
    /// the Takeout layout in it).
    static let takeoutRoot = "Takeout/Google Photos"

    /// Exports the selected assets; `advance` is called after each asset.
    func run(advance: () -> Void = {}) throws(LibraryError) -> LayoutExportReport {
        var report = LayoutExportReport(layout: options.layout.rawValue, output: output)
        let (assets, albums) = try selection()
        try createDirectory(output)
        var placements: [String: [String]] = [:]
        for (album, members) in albums {
            let folder = albumFolder(album.title)
            report.albums.append(.init(title: album.title, folder: folder, count: members.count))
            for member in members { placements[member, default: []].append(folder ?? "") }
        }
        if options.layout == .googlePhotos {
            for (album, _) in albums {
                let folder = albumFolder(album.title) ?? ""
                try writeJSON(TakeoutSidecarJSON.album(title: album.title, date: album.creationDate), to: folder + "/metadata.json")
            }
        }
        var used: [String: Set<String>] = [:]
        for asset in assets {
            var folders = placements[asset.localIdentifier] ?? []
            if options.layout == .googlePhotos {
                folders.insert(Self.takeoutRoot + "/" + Self.yearFolder(asset.creationDate), at: 0)
            } else if folders.isEmpty || options.albums == .flat {
                folders = [""]
            }
            for folder in folders {
                var names = used[folder] ?? []
                report.assets.append(export(asset, into: folder, used: &names))
                used[folder] = names
            }
            advance()
        }
        return report
    }

    /// `Photos from 2021` (the UTC year of the creation date), as Takeout names its year folders;
    /// `Photos without a date` for an asset with none.
    static func yearFolder(_ date: Date?) -> String {
        guard let date else { return "Photos without a date" }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        return "Photos from \(calendar.component(.year, from: date))"
    }

    /// An album's folder under the output: google-photos' is in the Takeout tree; nil for a flat export.
    private func albumFolder(_ title: String) -> String? {
        switch options.layout {
        case .googlePhotos: return Self.takeoutRoot + "/" + LayoutExportNames.folderName(title)
        case .applePhotos, .folder: return options.albums == .flat ? nil : LayoutExportNames.folderName(title)
        }
    }

    /// The assets to export (hidden ones included), and the albums with their exported members.
    private func selection() throws(LibraryError) -> (assets: [Asset], albums: [(AssetCollection, [String])]) {
        var collections = Array(try library.fetchAssetCollections())
        var assets: [Asset]
        if let title = options.album {
            collections = collections.filter { $0.title == title }
            guard let album = collections.first else {
                throw .invalidRequest("no album is titled '\(title)'")
            }
            assets = Array(try library.fetchAssets(in: album, options: FetchOptions(includeHiddenAssets: true)))
        } else {
            assets = Array(try library.fetchAssets(with: FetchOptions(includeHiddenAssets: true)))
        }
        if let since = options.since {
            assets = assets.filter { ($0.creationDate.map { $0 >= since }) ?? false }
        }
        let selected = Set(assets.map(\.localIdentifier))
        var albums: [(AssetCollection, [String])] = []
        for collection in collections {
            let members = try library.fetchAssets(in: collection, options: FetchOptions(includeHiddenAssets: true))
                .map(\.localIdentifier).filter(selected.contains)
            if !members.isEmpty { albums.append((collection, members)) }
        }
        return (assets, albums)
    }

    // MARK: One asset

    /// Writes `asset` into `folder`; on failure removes what it wrote there.
    private func export(_ asset: Asset, into folder: String, used: inout Set<String>) -> LayoutExportReport.AssetResult {
        var result = LayoutExportReport.AssetResult(asset: asset.localIdentifier, folder: folder)
        var written: [String] = []
        let directory = folder.isEmpty ? output : output + "/" + folder
        do throws(LibraryError) {
            try createDirectory(directory)
            let scratchFolder = try LibraryPhotosExport.scratchFolder(in: directory)
            defer { scratchFolder.remove() }
            var context = AssetExport(
                exporter: self, asset: asset, resources: try library.assetResources(for: asset), folder: folder,
                directory: directory, scratch: scratchFolder.path, used: used)
            defer { written = context.files.map { directory + "/" + $0.name } }
            try context.write()
            used = context.used
            result.files = context.files.map { .init(role: $0.role, path: (folder.isEmpty ? "" : folder + "/") + $0.name, handling: $0.handling) }
            result.metadataWritten = context.metadataWritten
            result.notWritten = context.notWritten
        } catch {
            for path in written { _ = FileSystemPath.unlink(path) }
            result.files = []
            result.error = error.description
        }
        return result
    }

    /// Creates `path` and its parents.
    func createDirectory(_ path: String) throws(LibraryError) {
        let created = FileSystemPath.createDirectories(path)
        guard created == 0 else {
            throw .io(path: path, reason: "cannot create the directory: " + FileSystemPath.errorText(created))
        }
    }

    /// Writes `json` atomically to `relative` under the output.
    func writeJSON(_ json: JSONElement, to relative: String) throws(LibraryError) {
        let path = output + "/" + relative
        try createDirectory(String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]))
        do throws(FormatError) {
            try AtomicFileWriter.write(json.renderedBytes() + [0x0A], to: path)
        } catch {
            throw .io(path: path, reason: error.description)
        }
    }

    /// Writes a stored resource to `path` atomically.
    func writeStored(_ resource: LibraryAssetResource, to path: String) throws(LibraryError) {
        try manager.writeData(for: resource, toFile: path)
    }
}
