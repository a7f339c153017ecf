import Dispatch
import Foundation
import LivePair
import LivePairCLI
import LivePairFormats
import LivePairLibrary
import Synchronization

/// `livepair import` of an export whose layout has sidecars (Google Takeout, iCloud Photos): the
/// layout's plan (`ExportPlan`) says which files make each asset and what metadata applies, and
/// every file of the plan is accounted for in the report (docs/exports.md).
///
/// Each asset's files are ingested as uploads (`Ingestor`: a Live Photo's halves link by their
/// content identifier, a render joins its original's edit, a file already in the library is a
/// duplicate), in the export's folder (`folder` of the upload, so edits group as in the export).
/// Folder files are copied; archive members were spooled as their part streamed by and are moved
/// into the store (their SHA-256 is known, so they are not hashed again). A Live Photo whose halves
/// lost a common identifier (paired by stem and time) is ingested from copies restamped with the
/// still's identifier (`LivePhotoPackager.restamp`; the export is never changed). Then the
/// sidecar's metadata is set on each asset (creation date when the sidecar gives it, location,
/// favourite, hidden, caption) and the albums are created or completed (by title).
struct LayoutImport {
    /// What became of one file of the plan.
    struct FileResult: Sendable {
        var file: TakeoutFileOutcome
        /// The library's answer for a media file (nil for sidecars, album metadata and ignored files).
        var outcome: IngestOutcome?
        /// Why a media file could not be ingested.
        var error: String?
        /// The library asset a media file or sidecar went into.
        var assetIdentifier: String?
    }

    let library: PhotoLibrary
    let owner: String
    let jobs: Int
    /// Where restamped copies are written (removed by the caller).
    let scratch: String
    let decodesMedia: Bool
    /// Whether a Live Photo half the export holds without its partner becomes an asset of its own
    /// (layouts with a plan: the export is complete); else it stays pending, as a plain import's.
    let importsLoneHalves: Bool

    /// An ingestor that copies upload files (folder files), or moves them (spooled members).
    func ingestor(moving: Bool) -> Ingestor {
        Ingestor(
            library: library, options: IngestOptions(uploadHandling: moving ? .move : .copy, decodesMedia: decodesMedia))
    }

    /// Ingests `plan` (whose files are `entries`, by tree path) and returns the file results, with
    /// the number of assets whose sidecar date was applied and the albums made or completed.
    /// `early` holds the results of files ingested while the export was read
    /// (`EarlyLayoutIngestion`): a file of the plan with a result there, or with the bytes of a file
    /// there (the copy the plan keeps of an album folder's file), is not ingested again; an asset
    /// made early that no file of the plan went into (the plan left its files out) is removed.
    func run(
        _ plan: TakeoutPlan, entries: [String: ExportEntry], early: [String: (IngestOutcome?, String?)] = [:]
    ) -> (files: [FileResult], datesApplied: Int, albums: Int, assets: [Asset], problems: [String]) {
        let copying = ingestor(moving: false)
        let moving = ingestor(moving: true)
        let earlyByDigest = Dictionary(
            early.compactMap { path, result in entries[path]?.digest.map { ($0, (path, result)) } }, uniquingKeysWith: { first, _ in first })
        let slots = ResultSlots<[String: (IngestOutcome?, String?)]>(count: plan.assets.count)
        let assetIdentifiers = ResultSlots<String>(count: plan.assets.count)
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: min(jobs, max(plan.assets.count, 1))) { _ in
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < plan.assets.count else { return }
                let asset = plan.assets[index]
                var known: [String: (IngestOutcome?, String?)] = [:]
                // Where the asset's original went in early when that was a copy of it in another
                // folder (an album's): its render must join it there.
                var originalFolder: String?
                for path in [asset.photo, asset.video, asset.render].compactMap({ $0 }) {
                    if let result = early[path] {
                        known[path] = result
                    } else if let (copy, result) = entries[path]?.digest.flatMap({ earlyByDigest[$0] }) {
                        known[path] = result
                        if path == asset.photo { originalFolder = Self.folder(copy) }
                    }
                }
                let (results, identifier) = ingest(
                    asset, index: index, entries: entries, known: known, renderFolder: originalFolder, copying: copying,
                    moving: moving)
                slots.store(results, at: index)
                if let identifier { assetIdentifiers.store(identifier, at: index) }
            }
        }
        var byPrimary: [String: String] = [:]
        var media: [String: (IngestOutcome?, String?)] = [:]
        for (index, asset) in plan.assets.enumerated() {
            if let identifier = assetIdentifiers.optionalValue(at: index) { byPrimary[asset.primaryPath] = identifier }
            for (path, result) in slots.optionalValue(at: index) ?? [:] { media[path] = result }
        }
        settle(plan.assets, media: &media, byPrimary: &byPrimary, ingestor: copying)
        var problems: [String] = []
        removeUntaken(early: early, plan: plan, taken: Set(media.values.compactMap { $0.0?.localIdentifier }), problems: &problems)
        let datesApplied = applyMetadata(plan.assets, identifiers: byPrimary, problems: &problems)
        let albums = makeAlbums(plan.albums, identifiers: byPrimary, problems: &problems)
        let files = plan.files.map { file -> FileResult in
            var result = FileResult(file: file)
            result.assetIdentifier = file.asset.flatMap { byPrimary[$0] }
            if file.disposition == .media, let (outcome, error) = media[file.path] {
                result.outcome = outcome
                result.error = error
            }
            return result
        }
        let identifiers = Set(files.compactMap { $0.outcome?.localIdentifier })
        let assets = (try? library.fetchAssets(withLocalIdentifiers: identifiers.sorted())).map { Array($0) } ?? []
        return (files, datesApplied, albums, assets, problems)
    }

    /// Halves still pending after the whole import: the asset their partner made later in the run,
    /// or (`importsLoneHalves`) an asset of their own; renders and `.AAE` files that waited for
    /// their original: the asset they joined.
    private func settle(
        _ assets: [TakeoutAsset], media: inout [String: (IngestOutcome?, String?)], byPrimary: inout [String: String],
        ingestor: Ingestor
    ) {
        let primaryOf = Dictionary(
            assets.flatMap { asset in [asset.photo, asset.video, asset.render].compactMap { $0 }.map { ($0, asset.primaryPath) } },
            uniquingKeysWith: { first, _ in first })
        func found(_ path: String, _ outcome: IngestOutcome?) {
            guard let outcome, let identifier = outcome.localIdentifier else { return }
            media[path] = (outcome, nil)
            if let primary = primaryOf[path], primary == path { byPrimary[primary] = identifier }
        }
        var lone: [String: String] = [:]
        for (path, result) in media {
            guard case let .pending(identifier) = result.0, !identifier.hasPrefix("edit:") else { continue }
            let options = FetchOptions(predicate: .and([.owner(owner), .contentIdentifier(identifier)]), includeHiddenAssets: true)
            if let asset = try? library.fetchAssets(with: options).firstObject {
                found(path, .accepted(localIdentifier: asset.localIdentifier))
            } else {
                lone[(path.split(separator: "/").last.map(String.init) ?? path) + "\u{0}" + identifier] = path
            }
        }
        if importsLoneHalves, !lone.isEmpty, let waiting = try? ingestor.pendingUploads(olderThan: 0, owner: owner) {
            let chosen = waiting.filter { lone[($0.originalFilename ?? "") + "\u{0}" + $0.contentIdentifier] != nil }
            for (upload, outcome) in zip(chosen, (try? ingestor.importPendingAlone(chosen)) ?? []) {
                if let path = lone[(upload.originalFilename ?? "") + "\u{0}" + upload.contentIdentifier] { found(path, outcome) }
            }
        }
        for (path, result) in media {
            guard case let .pending(identifier) = result.0, identifier.hasPrefix("edit:") else { continue }
            let name = path.split(separator: "/").last.map(String.init) ?? path
            let folder = Self.folder(path)
            found(path, try? ingestor.editPartOutcome(named: name, folder: folder, owner: owner))
        }
    }

    /// Assets made by early ingestion that no file of the plan went into (a JSON read later said
    /// `trashed`): removed, so that the library holds what the report says. A file ingested early
    /// into an asset the plan keeps but that the plan leaves out itself (a movie whose own JSON,
    /// read later, says `trashed`) cannot be taken out of its asset: it is reported as a problem.
    private func removeUntaken(
        early: [String: (IngestOutcome?, String?)], plan: TakeoutPlan, taken: Set<String>, problems: inout [String]
    ) {
        let outcomes = Dictionary(plan.files.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        for (path, result) in early.sorted(by: { $0.key < $1.key }) {
            guard let identifier = result.0?.localIdentifier, taken.contains(identifier), let outcome = outcomes[path],
                outcome.disposition != .media, outcome.reason != "duplicate"
            else { continue }
            problems.append(
                "\(path) went into asset \(identifier) while the parts were read, before the export said \(outcome.reason ?? "to leave it out")")
        }
        let untaken = Set(early.values.compactMap { result -> String? in
            guard case let .accepted(identifier) = result.0, !taken.contains(identifier) else { return nil }
            return identifier
        })
        guard !untaken.isEmpty else { return }
        do throws(LibraryError) {
            _ = try library.deleteAssets(withLocalIdentifiers: untaken.sorted())
        } catch {
            problems.append("\(untaken.count) assets ingested before the plan left them out could not be removed: \(error)")
        }
    }

    /// Ingests one asset's files but those whose result is `known` (ingested early, kept as they
    /// are); the results by tree path, and the asset's library identifier. The render is ingested
    /// in `renderFolder` when given (where its original went), else in its own folder.
    func ingest(
        _ asset: TakeoutAsset, index: Int, entries: [String: ExportEntry], known: [String: (IngestOutcome?, String?)],
        renderFolder: String? = nil, copying: Ingestor, moving: Ingestor
    ) -> ([String: (IngestOutcome?, String?)], String?) {
        var uploads: [(path: String, file: String, move: Bool, known: StoredResource?)] = []
        for path in [asset.photo, asset.video, asset.render].compactMap({ $0 }) where known[path] == nil {
            guard let entry = entries[path], let file = entry.file else { continue }
            let spooled = file != path
            let known = entry.digest.flatMap { digest -> StoredResource? in
                guard spooled, case let .identified(identity) = entry.content else { return nil }
                return StoredResource(digest: ContentDigest(bytes: digest), size: identity.fileSize)
            }
            uploads.append((path, file, spooled, known))
        }
        var results = known
        if asset.pairedBy == .stemAndTime, let photo = asset.photo, let video = asset.video,
            let still = uploads.firstIndex(where: { $0.path == photo }), let movie = uploads.firstIndex(where: { $0.path == video })
        {
            let identifier = (entries[photo].flatMap(Self.identity))?.contentIdentifier?.rawValue
            let output = "\(scratch)/restamp-\(index)"
            do throws(PackagingError) {
                let packaged = try LivePhotoPackager().restamp(
                    photo: uploads[still].file, video: uploads[movie].file, outputDirectory: output,
                    contentIdentifier: identifier)
                uploads[still] = (photo, packaged.photoPath, true, nil)
                uploads[movie] = (video, packaged.videoPath, true, nil)
            } catch {
                let message = "the halves paired by stem and time could not be given one identifier: \(error)"
                return ([photo: (nil, message), video: (nil, message)], nil)
            }
        }
        var identifier = known.lazy.filter { $0.key != asset.render }.compactMap { $0.value.0?.localIdentifier }.first
        for upload in uploads {
            let name = upload.path.split(separator: "/").last.map(String.init) ?? upload.path
            let folder = (upload.path == asset.render ? renderFolder : nil) ?? Self.folder(upload.path)
            do throws(LibraryError) {
                let ingestor = upload.move ? moving : copying
                let outcome = try ingestor.ingest(
                    fileAt: upload.file, owner: owner, originalFilename: name, knownContent: upload.known, folder: folder)
                results[upload.path] = (outcome, nil)
                if upload.path != asset.render, let found = outcome.localIdentifier { identifier = found }
            } catch {
                results[upload.path] = (nil, error.description)
            }
        }
        // The halves' first answer was `pending`: it is now the asset the second made.
        if let identifier {
            for (path, result) in results {
                if case .pending = result.0, path != asset.render { results[path] = (.accepted(localIdentifier: identifier), nil) }
            }
        }
        return (results, identifier)
    }

    /// The folder of a tree path (`a/b/c.jpg` -> `a/b`).
    static func folder(_ path: String) -> String { path.split(separator: "/").dropLast().joined(separator: "/") }

    private static func identity(_ entry: ExportEntry) -> ResourceIdentity? {
        if case let .identified(identity) = entry.content { return identity }
        return nil
    }

    /// Sets each asset's sidecar metadata where it differs from the library's; returns how many
    /// assets were dated by their sidecar.
    private func applyMetadata(_ assets: [TakeoutAsset], identifiers: [String: String], problems: inout [String]) -> Int {
        var wanted: [String: TakeoutAsset] = [:]
        for asset in assets { if let identifier = identifiers[asset.primaryPath] { wanted[identifier] = asset } }
        let existing: [Asset]
        do throws(LibraryError) {
            existing = Array(
                try library.fetchAssets(withLocalIdentifiers: Array(wanted.keys).sorted(), options: FetchOptions(includeHiddenAssets: true)))
        } catch {
            problems.append("the assets' metadata could not be applied: \(error)")
            return 0
        }
        var dated = 0
        for start in stride(from: 0, to: existing.count, by: 200) {
            let batch = existing[start..<min(start + 200, existing.count)]
            do throws(LibraryError) {
                try applyMetadata(batch, wanted: wanted)
            } catch {
                problems.append("the metadata of \(batch.count) assets could not be applied: \(error)")
                continue
            }
            dated += batch.filter { wanted[$0.localIdentifier]?.creationDateSource == .sidecar }.count
        }
        return dated
    }

    /// Sets `wanted`'s metadata on the assets of `batch`, in one change batch.
    private func applyMetadata(_ batch: ArraySlice<Asset>, wanted: [String: TakeoutAsset]) throws(LibraryError) {
        try library.performChangesAndWait { context in
            for current in batch {
                guard let plan = wanted[current.localIdentifier] else { continue }
                let date = plan.creationDateSource == .sidecar ? plan.creationDate?.date : nil
                let location = plan.location.map { AssetLocation(latitude: $0.latitude, longitude: $0.longitude) }
                let changes =
                    (date != nil && date != current.creationDate) || (location != nil && location != current.location)
                    || plan.isFavorite != current.isFavorite || plan.isHidden != current.isHidden
                    || plan.caption != current.caption
                guard changes else { continue }
                let request = context.changeRequest(for: current)
                if let date, date != current.creationDate { request.creationDate = date }
                if let location, location != current.location { request.location = location }
                if plan.isFavorite != current.isFavorite { request.isFavorite = plan.isFavorite }
                if plan.isHidden != current.isHidden { request.isHidden = plan.isHidden }
                if plan.caption != current.caption { request.caption = plan.caption }
            }
        }
    }

    /// Creates each album (or finds the one with its title) and adds its members; returns how many.
    private func makeAlbums(_ albums: [TakeoutPlan.Album], identifiers: [String: String], problems: inout [String]) -> Int {
        var done = 0
        for album in albums {
            let members = album.members.compactMap { identifiers[$0] }
            do throws(LibraryError) {
                let existing = try library.fetchAssetCollections(withTitle: album.title).firstObject
                var present: Set<String> = []
                if let existing {
                    present = Set(try library.fetchAssets(in: existing, options: FetchOptions(includeHiddenAssets: true)).localIdentifiers)
                }
                try library.performChangesAndWait { context in
                    let request =
                        existing.map { context.changeRequest(forAssetCollectionWithLocalIdentifier: $0.localIdentifier) }
                        ?? context.creationRequestForAssetCollection(withTitle: album.title)
                    let missing = members.filter { !present.contains($0) }
                    if !missing.isEmpty { request.addAssets(withLocalIdentifiers: missing) }
                }
                done += 1
            } catch {
                problems.append("the album \(album.title) could not be made: \(error)")
            }
        }
        return done
    }
}
