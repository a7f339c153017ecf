import Foundation
import LivePair

/// A `ContentEditingOutput` whose files are stored and whose render is identified: the resource
/// rows an edit writes once the batch's transaction finds its asset.
struct PreparedEdit: Sendable {
    /// One stored file of the edit.
    struct Part: Sendable {
        var stored: StoredResource
        var originalFilename: String?
        var uniformTypeIdentifier: String?
    }

    /// The adjustment data (an `.AAE` file, byte for byte).
    var adjustmentData: Part
    /// The rendered still, when any.
    var photo: Part?
    /// The rendered movie, when any.
    var video: Part?

    /// The resource types of this edit's files on `resources`' asset (`.fullSizePhoto`, and
    /// `.fullSizePairedVideo` for a Live Photo or `.fullSizeVideo` for a video); throws
    /// `invalidRequest` when the render does not fit the asset (a still for a video, a movie for a
    /// plain photo, no still for a photo).
    func rows(for asset: Asset, resources: [LibraryAssetResource]) throws(LibraryError) -> [(AssetResourceType, Part)] {
        let types = Set(resources.map(\.type))
        var rows: [(AssetResourceType, Part)] = [(.adjustmentData, adjustmentData)]
        if let photo {
            guard types.contains(.photo) else {
                throw .invalidRequest("asset \(asset.localIdentifier) has no photo: an edit of it cannot have a rendered still")
            }
            rows.append((.fullSizePhoto, photo))
        } else if types.contains(.photo) {
            throw .invalidRequest("an edit of photo \(asset.localIdentifier) needs its rendered still")
        }
        if let video {
            if types.contains(.pairedVideo) {
                rows.append((.fullSizePairedVideo, video))
            } else if types.contains(.video) && !types.contains(.photo) {
                rows.append((.fullSizeVideo, video))
            } else {
                throw .invalidRequest("asset \(asset.localIdentifier) has no movie: an edit of it cannot have a rendered movie")
            }
        } else if types.contains(.video) && !types.contains(.photo) {
            throw .invalidRequest("an edit of video \(asset.localIdentifier) needs its rendered movie")
        }
        return rows
    }

    /// Stores `output`'s files with `store` (through `storeSource`, which the batch uses for every
    /// file so a failure removes them) and identifies the render: a rendered still must be a
    /// still LivePair reads, a rendered movie a movie.
    init(
        _ output: ContentEditingOutput, store: any ResourceStore,
        storeSource: (ResourceSource) throws(LibraryError) -> StoredResource
    ) throws(LibraryError) {
        let identification = StoredResourceIdentification(store: store, identifier: ResourceIdentifier(), decodes: false)
        func part(_ source: ResourceSource, as type: AssetResourceType?) throws(LibraryError) -> Part {
            let stored = try storeSource(source)
            guard let type else {
                return Part(
                    stored: stored, originalFilename: source.fileName, uniformTypeIdentifier: "com.apple.photos.adjustment-data")
            }
            let identity: ResourceIdentity
            do throws(ResourceStoreError) {
                identity = try identification.identify(stored, as: type, localCopy: nil)
            } catch {
                throw .store(error)
            }
            let name = source.fileName ?? "the rendered \(type.isStill ? "still" : "movie")"
            let fits = type.isStill ? identity.format.isStill : identity.format.isMovie
            let problems = identity.issues.filter { $0.code != IdentityIssue.motionPhotoVideoMissingCode }
            guard fits, problems.isEmpty else {
                let reason =
                    problems.isEmpty ? "it is not a \(type.isStill ? "still image" : "movie")" : problems.map(\.message).joined(separator: "; ")
                throw .unreadableResource(name: name, reason: reason)
            }
            return Part(
                stored: stored, originalFilename: source.fileName,
                uniformTypeIdentifier: UniformTypeIdentifiers.identifier(for: identity.format))
        }
        adjustmentData = try part(output.adjustmentData, as: nil)
        photo = try output.renderedPhoto.map { (source: ResourceSource) throws(LibraryError) in try part(source, as: .fullSizePhoto) }
        video = try output.renderedVideo.map { (source: ResourceSource) throws(LibraryError) in try part(source, as: .fullSizePairedVideo) }
    }
}
