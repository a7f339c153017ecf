import Foundation
import LivePair
import LivePairCLI
import LivePairLibrary

/// `livepair library export <id> --output <dir> --for-photos`: a Live Photo as Apple Photos takes
/// it. The library keeps uploads as they came (a movie without a still-image-time track is
/// accepted, with the flag and a derived still-image time on the asset); on the way out the pair
/// is restamped (`LivePhotoPackager.restamp`) into the output directory with the asset's
/// still-image time and identifier (a fresh one when it is not a UUID). Other assets, and other
/// resources of a Live Photo, are exported as they are stored.
enum LibraryPhotosExport {
    /// Exports `identifier` from `library` into `output` for Apple Photos.
    static func run(
        _ identifier: String, from library: PhotoLibrary, to output: String, json: Bool, quiet: Bool, streams: OutputStreams
    ) throws(LibraryError) -> ExitCode {
        let asset = try LibraryCommand.asset(identifier, in: library)
        let resources = try library.assetResources(for: asset)
        let progress = LibraryCommand.exportProgress(resources.count, quiet: quiet, streams: streams)
        defer { progress.finish() }
        do {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        } catch {
            throw .io(path: output, reason: "cannot create the output directory")
        }
        let directory = output.hasSuffix("/") ? String(output.dropLast()) : output
        let manager = AssetResourceManager(library: library)
        guard asset.isLivePhoto, let photo = resources.first(where: { $0.type == .photo }),
            let video = resources.first(where: { $0.type == .pairedVideo })
        else {
            // Nothing to restamp: the plain export.
            var used: Set<String> = []
            let written = try writeAsStored(resources, into: directory, manager: manager, used: &used, progress: progress)
            progress.finish()
            print(asset, written, json: json, streams: streams)
            return .success
        }
        // The stored originals go to a hidden scratch folder beside the output (same file system),
        // under the names the export will have; restamp writes the new pair into the output. The
        // folder is a locked staging folder: removed on interruption, and when this run dies, by
        // the next export or packaging run into the output (which also completes a dead run's
        // journaled renames there).
        let scratchFolder = try Self.scratchFolder(in: directory)
        defer { scratchFolder.remove() }
        let scratch = scratchFolder.path
        var used: Set<String> = []
        var written: [(LibraryAssetResource, String)] = []
        var halves: [String] = []
        for resource in [photo, video] {
            let name = LibraryCommand.uniqueName(resource.exportFilename, in: directory, avoiding: used)
            used.insert(name)
            try manager.writeData(for: resource, toFile: scratch + "/" + name)
            halves.append(name)
            progress.advance()
        }
        let keptIdentifier = asset.contentIdentifier.flatMap(ContentIdentifier.init(rawValue:))
            .flatMap { $0.isWellFormedUUID ? $0.rawValue.uppercased() : nil }
        do throws(PackagingError) {
            let result = try LivePhotoPackager().restamp(
                photo: scratch + "/" + halves[0], video: scratch + "/" + halves[1], outputDirectory: directory,
                stillImageTime: asset.stillImageTime, contentIdentifier: keptIdentifier)
            written = [(photo, result.photoPath), (video, result.videoPath)]
        } catch {
            throw .io(path: directory, reason: "the Live Photo could not be prepared for Photos: \(error)")
        }
        let others = resources.filter { $0.type != .photo && $0.type != .pairedVideo }
        written += try writeAsStored(others, into: directory, manager: manager, used: &used, progress: progress)
        progress.finish()
        print(asset, written, json: json, streams: streams)
        return .success
    }

    /// A locked scratch folder in `directory`, after a dead run's leftovers there were recovered.
    static func scratchFolder(in directory: String) throws(LibraryError) -> ScratchFolder {
        StagingRecovery.recover(directories: [directory])
        do throws(PackagingError) {
            return try ScratchFolder(in: directory)
        } catch {
            throw .io(path: directory, reason: "cannot create the scratch folder: \(error.message)")
        }
    }

    /// Writes `resources` into `directory` as stored, under unique safe names (recorded in `used`).
    private static func writeAsStored(
        _ resources: [LibraryAssetResource], into directory: String, manager: AssetResourceManager, used: inout Set<String>,
        progress: ProgressReporter
    ) throws(LibraryError) -> [(LibraryAssetResource, String)] {
        var written: [(LibraryAssetResource, String)] = []
        for resource in resources {
            let name = LibraryCommand.uniqueName(resource.exportFilename, in: directory, avoiding: used)
            used.insert(name)
            try manager.writeData(for: resource, toFile: directory + "/" + name)
            written.append((resource, directory + "/" + name))
            progress.advance()
        }
        return written
    }

    private static func print(
        _ asset: Asset, _ written: [(LibraryAssetResource, String)], json: Bool, streams: OutputStreams
    ) {
        if json {
            streams.print(LibraryReport.exportJSON(asset, files: written).rendered())
        } else {
            for (resource, path) in written { streams.print("\(resource.type.rawValue)\t\(path)") }
        }
    }
}
