import Foundation
import LivePair

/// A creation request whose resources are stored and read: the asset row and resource rows to
/// insert, once the batch's catalog transaction decides it is not a duplicate.
struct PreparedCreation: Sendable {
    /// One stored resource of the new asset.
    struct Resource: Sendable {
        var addition: ResourceAddition
        var stored: StoredResource
        var uniformTypeIdentifier: String?
    }

    /// The plan it came from.
    var creation: ChangeBatchPlan.Creation
    /// The asset to insert (its identifier is the placeholder's).
    var asset: Asset
    /// Its resources, in the order added.
    var resources: [Resource]

    /// What deduplication compares: the owner and the resources' types and digests.
    var duplicateKey: DuplicateKey {
        DuplicateKey(owner: asset.owner, resources: resources.map { ResourceKey(type: $0.addition.type, digest: $0.stored.digest) }.sorted())
    }

    /// The owner and sorted resource keys of an asset.
    struct DuplicateKey: Hashable {
        var owner: String?
        var resources: [ResourceKey]
    }

    /// Reads the stored resources of `creation` (the identity of each still and movie), validates a
    /// Live Photo's two halves with `Validator.validatePair`, and derives the asset's properties.
    init(
        _ creation: ChangeBatchPlan.Creation, stored: [StoredResource], store: any ResourceStore, validator: Validator,
        addedDate: Date
    ) throws(LibraryError) {
        guard !creation.additions.isEmpty else {
            throw .invalidRequest("creation request \(creation.index) has no resources")
        }
        let identifier = ResourceIdentifier()
        var identities: [AssetResourceType: ResourceIdentity] = [:]
        var resources: [Resource] = []
        var displayNames: [String: String] = [:]
        for (position, (addition, storedResource)) in zip(creation.additions, stored).enumerated() {
            let name = addition.originalFilename ?? "resource \(position) of creation request \(creation.index)"
            var typeIdentifier = addition.options.uniformTypeIdentifier
            if addition.type.isStill || addition.type.isMovie {
                let path: String
                do throws(ResourceStoreError) {
                    path = try store.localPath(for: storedResource.digest)
                } catch {
                    throw .store(error)
                }
                displayNames[path] = name
                let identity = identifier.identify(path: path)
                try Self.check(identity, as: addition.type, name: name)
                if identities[addition.type] == nil { identities[addition.type] = identity }
                typeIdentifier = typeIdentifier ?? UniformTypeIdentifiers.identifier(for: identity.format)
            } else if addition.type == .adjustmentData {
                typeIdentifier = typeIdentifier ?? "com.apple.photos.adjustment-data"
            }
            resources.append(Resource(addition: addition, stored: storedResource, uniformTypeIdentifier: typeIdentifier))
        }
        let photo = identities[.photo]
        let pairedVideo = identities[.pairedVideo]
        let video = identities[.video]
        if pairedVideo != nil && photo == nil {
            throw .invalidRequest("creation request \(creation.index) has a paired video but no photo")
        }
        guard photo != nil || video != nil else {
            throw .invalidRequest("creation request \(creation.index) has neither a photo nor a video")
        }
        if let photo, let pairedVideo {
            let report = validator.validatePair(photo: AssetResource(photo), video: AssetResource(pairedVideo))
            let findings = report.allFindings.map { Self.renamed($0, displayNames) }
            if findings.contains(where: { $0.severity == .error }) { throw .invalidLivePhoto(findings) }
        }
        var subtypes: AssetMediaSubtypes = []
        if pairedVideo != nil || photo?.motionPhoto?.videoOffset != nil { subtypes.insert(.photoLive) }
        let main = photo ?? video
        let duration = photo == nil ? video?.duration : (pairedVideo?.duration ?? (subtypes.isEmpty ? nil : photo?.duration))
        self.creation = creation
        self.resources = resources
        self.asset = Asset(
            localIdentifier: creation.placeholder, mediaType: photo != nil ? .image : .video, mediaSubtypes: subtypes,
            pixelWidth: main?.width ?? 0, pixelHeight: main?.height ?? 0, duration: duration ?? 0,
            creationDate: creation.creationDate ?? photo?.captureDate?.date ?? (pairedVideo ?? video)?.captureDate?.date,
            location: creation.location, isFavorite: creation.isFavorite, isHidden: creation.isHidden,
            contentIdentifier: (photo ?? video)?.contentIdentifier?.rawValue ?? pairedVideo?.contentIdentifier?.rawValue,
            owner: creation.owner, addedDate: addedDate)
    }

    /// Refuses a resource LivePair cannot read, or whose format does not fit its type. A motion
    /// photo whose video cannot be found is kept as a plain photo.
    private static func check(_ identity: ResourceIdentity, as type: AssetResourceType, name: String) throws(LibraryError) {
        let problems = identity.issues.filter { $0.code != "motion-photo-video-missing" }
        guard problems.isEmpty else {
            throw .unreadableResource(name: name, reason: problems.map(\.message).joined(separator: "; "))
        }
        if type.isStill && !identity.format.isStill {
            throw .unreadableResource(name: name, reason: "added as \(type.rawValue) but it is not a still image")
        }
        if type.isMovie && !identity.format.isMovie {
            throw .unreadableResource(name: name, reason: "added as \(type.rawValue) but it is not a movie")
        }
    }

    /// `finding` with store paths replaced by the names the resources were added with.
    private static func renamed(_ finding: Finding, _ names: [String: String]) -> Finding {
        var path = finding.path
        var message = finding.message
        // Whole paths first, then the bare file names messages use.
        for (storePath, name) in names {
            path = path.replacingOccurrences(of: storePath, with: name)
            message = message.replacingOccurrences(of: storePath, with: name)
        }
        for (storePath, name) in names {
            guard let fileName = storePath.split(separator: "/").last.map(String.init) else { continue }
            path = path.replacingOccurrences(of: fileName, with: name)
            message = message.replacingOccurrences(of: fileName, with: name)
        }
        return Finding(code: finding.code, severity: finding.severity, path: path, message: message, hint: finding.hint)
    }
}
