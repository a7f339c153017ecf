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

    /// Reads the stored resources of `creation` (the identity of each still and movie, through
    /// `StoredResourceIdentification`: from local files or ranges, not whole transfers), validates a
    /// Live Photo's two halves with `Validator.validatePair` (refused only for findings that reject
    /// uploads; the others are kept on the asset), and derives the asset's properties: dated by the
    /// still (its UTC offset from the movie when it has none), placed by GPS, a Live Photo's
    /// still-image time (derived when the movie has none).
    init(
        _ creation: ChangeBatchPlan.Creation, stored: [StoredResource], store: any ResourceStore, validator: Validator,
        addedDate: Date
    ) throws(LibraryError) {
        guard !creation.additions.isEmpty else {
            throw .invalidRequest("creation request \(creation.index) has no resources")
        }
        let identification = StoredResourceIdentification(
            store: store, identifier: ResourceIdentifier(), decodes: validator.options.deep)
        var identities: [AssetResourceType: NamedIdentity] = [:]
        var others: [NamedIdentity] = []
        var resources: [Resource] = []
        var displayNames: [String: String] = [:]
        for (position, (addition, storedResource)) in zip(creation.additions, stored).enumerated() {
            let name = addition.originalFilename ?? "resource \(position) of creation request \(creation.index)"
            var typeIdentifier = addition.options.uniformTypeIdentifier
            if addition.type.isStill || addition.type.isMovie {
                let identity: ResourceIdentity
                do throws(ResourceStoreError) {
                    identity = try identification.identify(storedResource, as: addition.type, localCopy: addition.localCopy)
                } catch {
                    throw .store(error)
                }
                displayNames[identity.path] = name
                try Self.check(identity, as: addition.type, name: name)
                let named = NamedIdentity(identity: identity, name: name, isOriginalFilename: addition.originalFilename != nil)
                if identities[addition.type] == nil { identities[addition.type] = named } else { others.append(named) }
                typeIdentifier = typeIdentifier ?? UniformTypeIdentifiers.identifier(for: identity.format)
            } else if addition.type == .adjustmentData {
                typeIdentifier = typeIdentifier ?? "com.apple.photos.adjustment-data"
            }
            resources.append(Resource(addition: addition, stored: storedResource, uniformTypeIdentifier: typeIdentifier))
        }
        let photo = identities[.photo]?.identity
        let pairedVideo = identities[.pairedVideo]?.identity
        let video = identities[.video]?.identity
        if pairedVideo != nil && photo == nil {
            throw .invalidRequest("creation request \(creation.index) has a paired video but no photo")
        }
        guard photo != nil || video != nil else {
            throw .invalidRequest("creation request \(creation.index) has neither a photo nor a video")
        }
        let assessment = try Self.assess(
            photo: identities[.photo], pairedVideo: identities[.pairedVideo],
            others: [identities[.video]].compactMap { $0 } + others, validator: validator, names: displayNames)
        var subtypes: AssetMediaSubtypes = []
        if pairedVideo != nil || photo?.motionPhoto?.videoOffset != nil { subtypes.insert(.photoLive) }
        let main = photo ?? video
        let duration = photo == nil ? video?.duration : (pairedVideo?.duration ?? (subtypes.isEmpty ? nil : photo?.duration))
        self.creation = creation
        self.resources = resources
        self.asset = Asset(
            localIdentifier: creation.placeholder, mediaType: photo != nil ? .image : .video, mediaSubtypes: subtypes,
            pixelWidth: main?.width ?? 0, pixelHeight: main?.height ?? 0, duration: duration ?? 0,
            creationDate: creation.creationDate ?? Self.captureDate(photo: photo, movie: pairedVideo ?? video),
            location: creation.location ?? Self.location(photo: photo, movie: pairedVideo ?? video),
            isFavorite: creation.isFavorite, isHidden: creation.isHidden,
            contentIdentifier: (photo ?? video)?.contentIdentifier?.rawValue ?? pairedVideo?.contentIdentifier?.rawValue,
            owner: creation.owner, addedDate: addedDate, stillImageTime: assessment.stillImageTime,
            findings: assessment.findings)
    }

    /// Refuses a resource LivePair cannot read, or whose format does not fit its type. A motion
    /// photo whose video cannot be found is kept as a plain photo.
    private static func check(_ identity: ResourceIdentity, as type: AssetResourceType, name: String) throws(LibraryError) {
        let problems = identity.issues.filter { $0.code != IdentityIssue.motionPhotoVideoMissingCode }
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
    static func renamed(_ finding: Finding, _ names: [String: String]) -> Finding {
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
