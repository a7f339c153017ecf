import Foundation
import LivePair
import LivePairCLI
import LivePairCore
import LivePairFormats
import LivePairLibrary

/// One asset written into one folder of a layout export: which files, under which names, made how.
struct AssetExport {
    /// One file written (its name in the folder).
    struct Written {
        var role: String
        var name: String
        var handling: String
    }

    let exporter: LibraryLayoutExporter
    let asset: Asset
    let resources: [LibraryAssetResource]
    let folder: String
    /// The folder's path.
    let directory: String
    /// A locked scratch folder inside `directory`, removed by the caller.
    let scratch: String
    /// The names taken in the folder by this run.
    var used: Set<String>
    /// What was written, in order.
    var files: [Written] = []
    /// `date`, `location`: what was written into the files' metadata.
    var metadataWritten: [String] = []
    /// What was left out, one sentence each.
    var notWritten: [String] = []

    private var still: LibraryAssetResource? { resources.first { $0.type == .photo } }
    private var pairedMovie: LibraryAssetResource? { resources.first { $0.type == .pairedVideo } }
    private var video: LibraryAssetResource? { resources.first { $0.type == .video } }
    private var renderStill: LibraryAssetResource? { resources.first { $0.type == .fullSizePhoto } }
    private var renderMovie: LibraryAssetResource? { resources.first { $0.type == .fullSizePairedVideo || $0.type == .fullSizeVideo } }
    private var adjustments: LibraryAssetResource? { resources.first { $0.type == .adjustmentData } }
    private var originalAdjustments: LibraryAssetResource? { resources.first { $0.type == .originalAdjustmentData } }
    /// A motion photo: a Live Photo whose still holds its movie.
    private var isMotionPhoto: Bool { asset.isLivePhoto && pairedMovie == nil && still != nil }
    /// The resource the asset is named after.
    private var main: LibraryAssetResource? { still ?? video ?? resources.first }

    /// Writes the asset in the exporter's layout.
    mutating func write() throws(LibraryError) {
        switch exporter.options.layout {
        case .applePhotos: try writeForApplePhotos()
        case .googlePhotos: try writeForGooglePhotos()
        case .folder: try writeFolder()
        }
        for file in files where file.role != "sidecar" {
            if !LayoutExportMetadata.setFileTime(directory + "/" + file.name, to: asset.creationDate) {
                notWritten.append("the file time of \(file.name) could not be set")
            }
        }
    }

    // MARK: apple-photos

    /// Live Photos as one identifier on a HEIC/JPEG and a MOV (motion photos converted), edits as
    /// `IMG_E1234.*` + `IMG_1234.AAE`, others as stored.
    private mutating func writeForApplePhotos() throws(LibraryError) {
        guard let main else { return }
        let mainExtension = isMotionPhoto
            ? (main.uniformTypeIdentifier == "public.jpeg" ? "JPG" : "HEIC")
            : LayoutExportNames.fileExtension(main.exportFilename).uppercased()
        var baseStem = LayoutExportNames.stem(main.exportFilename)
        if isMotionPhoto, baseStem.uppercased().hasSuffix(".MP") { baseStem.removeLast(3) }
        let renderStillExtension = renderStill.map { LayoutExportNames.fileExtension($0.exportFilename).uppercased() }
        let hasMovie = pairedMovie != nil || isMotionPhoto
        let edited = renderStill != nil || renderMovie != nil || adjustments != nil
        func names(_ stem: String) -> [String] {
            let renderStem = LayoutExportNames.photosNumber(stem).map { "IMG_E" + $0 } ?? stem + "_edited"
            var names = [stem + "." + mainExtension]
            if hasMovie { names.append(stem + ".MOV") }
            if let renderStillExtension { names.append(renderStem + "." + renderStillExtension) }
            if let renderMovie { names.append(renderStem + "." + LayoutExportNames.fileExtension(renderMovie.exportFilename).uppercased()) }
            if adjustments != nil { names.append(stem + ".AAE") }
            if originalAdjustments != nil {
                names.append((LayoutExportNames.photosNumber(stem).map { "IMG_O" + $0 } ?? stem + "_original") + ".AAE")
            }
            return names
        }
        let stem = (edited ? LayoutExportNames.photosEditStem(baseStem, in: directory, used: used, names: names) : nil)
            ?? LayoutExportNames.freeStem(baseStem, in: directory, used: used, names: names)
        let planned = names(stem)
        used.formUnion(planned)
        var index = 0
        func next() -> String {
            defer { index += 1 }
            return planned[index]
        }
        if let still, let pairedMovie {
            try writeLivePhoto(still: still, movie: pairedMovie, names: (next(), next()))
        } else if isMotionPhoto, let still {
            try writeLivePhoto(fromMotionPhoto: still, names: (next(), next()))
        } else {
            try copy(main, as: next())
        }
        if let renderStill { try copy(renderStill, as: next()) }
        if let renderMovie { try copy(renderMovie, as: next()) }
        if let adjustments { try copy(adjustments, as: next()) }
        if let originalAdjustments { try copy(originalAdjustments, as: next()) }
        try copyOthers(except: [main, pairedMovie, renderStill, renderMovie, adjustments, originalAdjustments])
    }

    /// The Live Photo's halves with the asset's identifier and still-image time, and its date and
    /// place where the files lack them; the stored bytes when both halves are ready already.
    private mutating func writeLivePhoto(
        still: LibraryAssetResource, movie: LibraryAssetResource, names: (String, String)
    ) throws(LibraryError) {
        let (stillScratch, movieScratch) = (scratch + "/" + names.0, scratch + "/" + names.1)
        try exporter.writeStored(still, to: stillScratch)
        try exporter.writeStored(movie, to: movieScratch)
        let identifier = ResourceIdentifier()
        let identities = [identifier.identify(path: stillScratch), identifier.identify(path: movieScratch)]
        let stamp = LayoutExportMetadata.stamp(for: asset, still: identities[0], movie: identities[1])
        let kept = keptIdentifier
        let ready = stamp == nil && kept != nil && identities.allSatisfy { $0.contentIdentifier?.rawValue.uppercased() == kept }
            && identities[1].stillImageTime != nil
        if ready {
            try move(stillScratch, to: names.0)
            try move(movieScratch, to: names.1)
            files += [.init(role: "photo", name: names.0, handling: "copied"), .init(role: "pairedVideo", name: names.1, handling: "copied")]
            return
        }
        var options = PackagingOptions()
        options.captureStamp = stamp
        do throws(PackagingError) {
            _ = try LivePhotoPackager(options: options).restamp(
                photo: stillScratch, video: movieScratch, outputDirectory: directory,
                stillImageTime: Self.stillImageTime(of: asset, movie: identities[1]), contentIdentifier: kept)
        } catch {
            throw .io(path: directory + "/" + names.0, reason: "the Live Photo could not be prepared for Photos: \(error)")
        }
        files += [.init(role: "photo", name: names.0, handling: "restamped"), .init(role: "pairedVideo", name: names.1, handling: "restamped")]
        metadataWritten = LayoutExportMetadata.written(stamp)
    }

    /// A motion photo as a Live Photo (its identifier and still time kept, `convert`'s way).
    private mutating func writeLivePhoto(fromMotionPhoto still: LibraryAssetResource, names: (String, String)) throws(LibraryError) {
        let input = scratch + "/" + LayoutExportNames.stem(names.0) + ".MP." + LayoutExportNames.fileExtension(names.0)
        try exporter.writeStored(still, to: input)
        let stamp = LayoutExportMetadata.stamp(for: asset, still: ResourceIdentifier().identify(path: input))
        var options = PackagingOptions()
        options.captureStamp = stamp
        let result: PackagedLivePhoto
        do throws(PackagingError) {
            result = try MotionPhotoConverter(options: options).livePhoto(
                motionPhoto: input, outputDirectory: directory, contentIdentifier: keptIdentifier)
        } catch {
            throw .io(path: directory + "/" + names.0, reason: "the motion photo could not be converted to a Live Photo: \(error)")
        }
        let photoName = LayoutExportNames.lastComponent(result.photoPath)
        let videoName = LayoutExportNames.lastComponent(result.videoPath)
        used.formUnion([photoName, videoName])
        files += [.init(role: "photo", name: photoName, handling: "converted"), .init(role: "pairedVideo", name: videoName, handling: "converted")]
        let check = ResourceIdentifier().identify(path: result.photoPath)
        metadataWritten = stamp == nil || LayoutExportMetadata.stamp(for: asset, still: check) != nil
            ? [] : LayoutExportMetadata.written(stamp)
        if stamp != nil, metadataWritten.isEmpty {
            notWritten.append("the converted Live Photo keeps the motion photo's own date and place")
        }
    }

    /// The still-image time a restamp writes: nil (the movie's own, exactly as the camera wrote it,
    /// often between two frames) when the movie has the asset's; else the asset's (derived on
    /// import for a movie without one), snapped to a frame.
    static func stillImageTime(of asset: Asset, movie: ResourceIdentity) -> Double? {
        guard let wanted = asset.stillImageTime else { return nil }
        if let own = movie.stillImageTime, abs(own - wanted) < 1e-6 { return nil }
        return wanted
    }

    /// The asset's identifier when it is a UUID (what Photos needs), uppercase; nil for a fresh one.
    private var keptIdentifier: String? {
        asset.contentIdentifier.flatMap(ContentIdentifier.init(rawValue:))
            .flatMap { $0.isWellFormedUUID ? $0.rawValue.uppercased() : nil }
    }

    // MARK: google-photos

    /// Motion photos (Live Photos converted), the other files as stored, `-edited` renders, and a
    /// Takeout sidecar per media file.
    private mutating func writeForGooglePhotos() throws(LibraryError) {
        guard let main else { return }
        let converts = still != nil && pairedMovie != nil
        let mainExtension = converts
            ? (main.uniformTypeIdentifier == "public.jpeg" || exporter.options.stillEncoding == .jpeg ? "JPG" : "HEIC")
            : LayoutExportNames.fileExtension(main.exportFilename)
        let baseStem = LayoutExportNames.stem(main.exportFilename)
        let renderFile = renderStill ?? renderMovie
        func names(_ stem: String) -> [String] {
            var names = [stem + "." + mainExtension, stem + "." + mainExtension + ".supplemental-metadata.json"]
            if let renderFile { names.append(stem + "-edited." + LayoutExportNames.fileExtension(renderFile.exportFilename)) }
            return names
        }
        let stem = LayoutExportNames.freeStem(baseStem, in: directory, used: used, names: names)
        let planned = names(stem)
        used.formUnion(planned)
        if let still, let pairedMovie {
            try writeMotionPhoto(still: still, movie: pairedMovie, name: planned[0])
        } else {
            try copy(main, as: planned[0])
        }
        if let renderStill, let renderMovie, renderMovie.type == .fullSizePairedVideo {
            try writeRenderMotionPhoto(still: renderStill, movie: renderMovie, name: planned[2])
        } else if let renderFile {
            try copy(renderFile, as: planned[2])
        }
        if adjustments != nil || originalAdjustments != nil {
            notWritten.append("the adjustment data (.AAE): Google Photos has no place for it")
        }
        try exporter.writeJSON(
            TakeoutSidecarJSON.media(title: planned[0], asset: asset),
            to: (folder.isEmpty ? "" : folder + "/") + planned[1])
        files.append(.init(role: "sidecar", name: planned[1], handling: "written"))
        try copyOthers(except: [main, pairedMovie, renderStill, renderMovie, adjustments, originalAdjustments])
    }

    /// A Live Photo as a motion photo: restamped first (its date and place written where the files
    /// lack them), then converted (`convert --to motion-photo`).
    private mutating func writeMotionPhoto(still: LibraryAssetResource, movie: LibraryAssetResource, name: String) throws(LibraryError) {
        let stem = LayoutExportNames.stem(name)
        let stillName = stem + "." + LayoutExportNames.fileExtension(still.exportFilename)
        let movieName = stem + "." + LayoutExportNames.fileExtension(movie.exportFilename)
        // Scratch folders hold files only (an interrupted run empties them without recursing): the
        // stored halves in this one, the restamped pair in a second one beside it.
        let stored = scratch
        let stampedFolder = try LibraryPhotosExport.scratchFolder(in: directory)
        defer { stampedFolder.remove() }
        let stamped = stampedFolder.path
        try exporter.writeStored(still, to: stored + "/" + stillName)
        try exporter.writeStored(movie, to: stored + "/" + movieName)
        let identifier = ResourceIdentifier()
        let identities = [identifier.identify(path: stored + "/" + stillName), identifier.identify(path: stored + "/" + movieName)]
        let stamp = LayoutExportMetadata.stamp(for: asset, still: identities[0], movie: identities[1])
        var options = PackagingOptions()
        options.captureStamp = stamp
        options.stillEncoding = exporter.options.stillEncoding
        do throws(PackagingError) {
            let pair = try LivePhotoPackager(options: options).restamp(
                photo: stored + "/" + stillName, video: stored + "/" + movieName, outputDirectory: stamped,
                stillImageTime: Self.stillImageTime(of: asset, movie: identities[1]), contentIdentifier: keptIdentifier)
            options.captureStamp = nil
            var photo = pair.photoPath
            if exporter.options.stillEncoding == .jpeg, ResourceIdentifier().identify(path: photo).format == .heic {
                photo = stamped + "/" + stem + ".reencoded.JPG"
                try StillReencoder.jpeg(fromStillAt: pair.photoPath, to: photo, limits: options.limits)
                notWritten.append("the HEIC still itself: re-encoded as JPEG (--still jpeg; Exif and colour profile kept)")
            }
            _ = try MotionPhotoConverter(options: options).motionPhoto(photo: photo, video: pair.videoPath, output: directory + "/" + name)
        } catch {
            throw .io(path: directory + "/" + name, reason: "the Live Photo could not be converted to a motion photo: \(error)")
        }
        files.append(.init(role: "motionPhoto", name: name, handling: "converted"))
        metadataWritten = LayoutExportMetadata.written(stamp)
    }

    /// An edited Live Photo's render (its own identifier) as the `-edited` motion photo.
    private mutating func writeRenderMotionPhoto(
        still: LibraryAssetResource, movie: LibraryAssetResource, name: String
    ) throws(LibraryError) {
        let stillPath = scratch + "/render." + LayoutExportNames.fileExtension(still.exportFilename)
        let moviePath = scratch + "/render." + LayoutExportNames.fileExtension(movie.exportFilename)
        try exporter.writeStored(still, to: stillPath)
        try exporter.writeStored(movie, to: moviePath)
        do throws(PackagingError) {
            _ = try MotionPhotoConverter().motionPhoto(photo: stillPath, video: moviePath, output: directory + "/" + name)
        } catch {
            throw .io(path: directory + "/" + name, reason: "the render could not be converted to a motion photo: \(error)")
        }
        files.append(.init(role: "fullSizePhoto", name: name, handling: "converted"))
    }

    // MARK: folder

    /// Every resource as stored under its own name, and `NAME.json` describing the asset.
    private mutating func writeFolder() throws(LibraryError) {
        guard let main else { return }
        var names: [String] = []
        for resource in resources {
            let name = LibraryCommand.uniqueName(resource.exportFilename, in: directory, avoiding: used)
            used.insert(name)
            names.append(name)
            try copy(resource, as: name)
        }
        let sidecar = LibraryCommand.uniqueName(names[resources.firstIndex(of: main) ?? 0] + ".json", in: directory, avoiding: used)
        used.insert(sidecar)
        var members: [(String, JSONElement)] = [("asset", LibraryReport.json(asset)), ("caption", .optional(asset.caption))]
        members.append(("albums", .array(((try? library.fetchAssetCollections(containing: asset).map(\.title)) ?? []).map(JSONElement.string))))
        members.append((
            "files",
            .array(zip(resources, names).map { resource, name in
                .object([
                    ("type", .string(resource.type.rawValue)), ("name", .string(name)),
                    ("originalFilename", .optional(resource.originalFilename)), ("size", .integer(Int64(resource.size))),
                    ("digest", .string(resource.digest.hex)),
                ])
            })))
        try exporter.writeJSON(.object(members), to: (folder.isEmpty ? "" : folder + "/") + sidecar)
        files.append(.init(role: "sidecar", name: sidecar, handling: "written"))
    }

    private var library: PhotoLibrary { exporter.library }

    // MARK: Files

    /// Writes `resource` as stored to `name` in the folder.
    private mutating func copy(_ resource: LibraryAssetResource, as name: String) throws(LibraryError) {
        try exporter.writeStored(resource, to: directory + "/" + name)
        files.append(.init(role: resource.type.rawValue, name: name, handling: "copied"))
    }

    /// Writes the resources a layout has no name of its own for (an alternate still, an audio
    /// file) as stored, under unique safe names.
    private mutating func copyOthers(except handled: [LibraryAssetResource?]) throws(LibraryError) {
        let handled = Set(handled.compactMap { $0 })
        for resource in resources where !handled.contains(resource) {
            let name = LibraryCommand.uniqueName(resource.exportFilename, in: directory, avoiding: used)
            used.insert(name)
            try copy(resource, as: name)
        }
    }

    /// Renames a scratch file to `name` in the folder (same file system: one atomic rename).
    private func move(_ path: String, to name: String) throws(LibraryError) {
        let destination = directory + "/" + name
        guard FileSystemPath.linkStatus(destination) == nil else { throw .io(path: destination, reason: "the file exists") }
        guard FileSystemPath.rename(path, destination) == 0 else {
            throw .io(path: destination, reason: FileSystemPath.errorText(errno))
        }
    }
}
