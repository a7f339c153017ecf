import Synchronization
public import LivePairFormats

/// The assets of a Google Takeout that can be ingested while its parts are still streaming, before
/// the whole export is planned (`TakeoutPlanner` needs every file). Fed each entry as it is read
/// (from any thread), it gives back the assets an entry completes, when no file still to come
/// can change them:
/// - a **Live Photo** whose still and movie share a content identifier in one folder, the only
///   two files of that folder with it (`Pairing` pairs them by identifier whatever else comes);
/// - a **motion photo** (its movie is inside).
///
/// The still (or motion photo) must have its own sidecar by one of the two strongest naming rules
/// (`NAME.json`, `NAME.supplemental-metadata.json`: no other JSON can take the file from it),
/// read and not `trashed`; a Live Photo's movie too when one of those is read for it (Takeout
/// often gives the movie none: it then goes with its still). No file may be named as an
/// `-edited` render, or have the bytes of a file already given (an album folder's copy of a year
/// folder's file). Everything else waits for the plan: halves without an identifier (paired by
/// stem and time, restamped), renders, stills whose sidecar is cut or missing. The plan decides in
/// the end; what it leaves out that was given early is for the importer to undo or report.
public final class TakeoutEarlyAssets: Sendable {
    private struct Folder {
        var media: [String: ResourceIdentity] = [:]
        var sidecars: [String: TakeoutMetadata?] = [:]
        var namesByIdentifier: [String: [String]] = [:]
    }

    private struct State {
        var folders: [String: Folder] = [:]
        var digests: [String: [UInt8]] = [:]
        var given: Set<String> = []
        var givenDigests: Set<[UInt8]> = []
    }

    private let state = Mutex(State())
    private let limits: ParseLimits

    /// An empty set; sidecars are parsed within `limits`.
    public init(limits: ParseLimits = .default) { self.limits = limits }

    /// Adds `entry` (a file as it was read) and returns the assets it completes, each given once.
    public func add(_ entry: ExportEntry) -> [TakeoutAsset] {
        let folderPath = TakeoutPlanningState.folder(entry.path)
        let name = TakeoutPlanningState.name(entry.path)
        var metadata: TakeoutMetadata?
        if case let .json(bytes) = entry.content, let json = try? JSONReader(limits: limits).read(bytes, context: entry.path),
            TakeoutMetadata.isMediaSidecar(json)
        {
            metadata = TakeoutMetadata(json: json)
        }
        return state.withLock { state -> [TakeoutAsset] in
            var folder = state.folders[folderPath] ?? Folder()
            defer { state.folders[folderPath] = folder }
            var touched: [String] = []
            switch entry.content {
            case .skipped: return []
            case .json:
                folder.sidecars[name] = metadata
                touched = TakeoutSidecarMatcher.strongMediaNames(forJSON: name).filter { folder.media[$0] != nil }
            case let .identified(identity):
                guard TakeoutPlanningState.isMedia(identity) else { return [] }
                folder.media[name] = identity
                if let digest = entry.digest { state.digests[entry.path] = digest }
                if let identifier = identity.contentIdentifier?.rawValue { folder.namesByIdentifier[identifier, default: []].append(name) }
                touched = [name]
            }
            var completed: [TakeoutAsset] = []
            for name in touched {
                if let asset = Self.complete(name, in: folder, folderPath: folderPath, state: state) {
                    for path in [asset.photo, asset.video].compactMap({ $0 }) {
                        state.given.insert(path)
                        if let digest = state.digests[path] { state.givenDigests.insert(digest) }
                    }
                    completed.append(asset)
                }
            }
            return completed
        }
    }

    /// The asset `name` completes, or nil.
    private static func complete(_ name: String, in folder: Folder, folderPath: String, state: State) -> TakeoutAsset? {
        guard let identity = folder.media[name] else { return nil }
        func path(_ name: String) -> String { TakeoutPlanningState.join(folderPath, name) }
        /// Whether `name` may be given: `needsSidecar`, only with its own strong sidecar read.
        func ready(_ name: String, needsSidecar: Bool = true) -> Bool {
            let path = path(name)
            guard !state.given.contains(path), !isRenderName(name) else { return false }
            if let digest = state.digests[path], state.givenDigests.contains(digest) { return false }
            let sidecar = TakeoutSidecarMatcher.strongSidecarNames(for: name).lazy.compactMap { folder.sidecars[$0] ?? nil }.first
            return sidecar.map { !$0.isTrashed } ?? !needsSidecar
        }
        if identity.motionPhoto != nil {
            return ready(name) ? asset(.motionPhoto, photo: path(name), video: nil, identifier: identity.contentIdentifier) : nil
        }
        guard let identifier = identity.contentIdentifier, let names = folder.namesByIdentifier[identifier.rawValue],
            names.count == 2, let still = names.first(where: { folder.media[$0]?.role == .livePhotoStill }),
            let movie = names.first(where: { folder.media[$0]?.role == .livePhotoVideo }),
            ready(still), ready(movie, needsSidecar: false)
        else { return nil }
        return asset(.livePhoto, photo: path(still), video: path(movie), identifier: identifier)
    }

    private static func asset(
        _ kind: TakeoutAsset.Kind, photo: String?, video: String?, identifier: ContentIdentifier?
    ) -> TakeoutAsset {
        TakeoutAsset(
            kind: kind, photo: photo, video: video, render: nil, pairedBy: kind == .livePhoto ? .identifier : nil,
            contentIdentifier: identifier, sidecar: nil, sidecarRule: nil, creationDate: nil, creationDateSource: nil, location: nil,
            isFavorite: false, isHidden: false, caption: nil, albums: [])
    }

    /// Whether `name` is named as a Takeout render (`IMG_1234-edited.jpg`), whether or not its
    /// original is there yet.
    private static func isRenderName(_ name: String) -> Bool {
        let stem = TakeoutSidecarMatcher.stem(name).lowercased()
        return TakeoutEditedRenders.suffixes.contains { stem.hasSuffix($0) && stem.count > $0.count }
    }
}
