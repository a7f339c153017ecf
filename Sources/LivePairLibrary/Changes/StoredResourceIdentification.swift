import LivePair
import LivePairFormats

/// Identifies the stored files of a new asset, transferring as little as possible: the stored
/// file itself when the store has it on this machine (a directory store, or a copy in an object
/// store's cache); else the upload it came from when that is still on this node's disk and
/// unchanged (`LocalCopy`); else ranged reads of the stored object (only the headers, `moov`,
/// `meta` and Exif are read). A whole file is fetched only when a reader needs one: deep
/// validation (decoders), a Live Photo movie whose frame times must be read again (no usable
/// still-image time), or a file that could not be identified from its ranges.
///
/// An identity read without a file reports its path as the digest's hexadecimal name, which
/// `PreparedCreation.renamed` maps to the name the resource was added with.
struct StoredResourceIdentification {
    let store: any ResourceStore
    let identifier: ResourceIdentifier
    /// True when validation decodes the files (it needs local files).
    let decodes: Bool

    /// The identity of `resource`, added as `type`, with `localCopy` its upload when known.
    func identify(
        _ resource: StoredResource, as type: AssetResourceType, localCopy: LocalCopy?
    ) throws(ResourceStoreError) -> ResourceIdentity {
        if let path = store.localPathIfPresent(for: resource.digest) { return identifier.identify(path: path) }
        if !decodes {
            if let localCopy, let identity = identifyCopy(localCopy, of: resource), Self.isEnough(identity, as: type) {
                return identity
            }
            let identity = identifier.identify(source: try store.byteSource(for: resource), path: resource.digest.hex)
            if Self.isEnough(identity, as: type) { return identity }
        }
        return identifier.identify(path: try store.localPath(for: resource.digest))
    }

    /// The identity read from the upload, when the upload is still the file that was stored.
    private func identifyCopy(_ copy: LocalCopy, of resource: StoredResource) -> ResourceIdentity? {
        guard copy.isUnchanged, let source = try? FileByteSource(path: copy.path), source.size == resource.size else { return nil }
        let identity = identifier.identify(source: source, path: resource.digest.hex)
        // Checked again after the read: the bytes read are the ones stored.
        return copy.isUnchanged ? identity : nil
    }

    /// True when validation needs nothing but `identity`: it was read whole, and a Live Photo
    /// movie has a still-image time inside the movie with its nearest frame found (otherwise the
    /// rules and the still-image-time derivation read the movie's frame times from its file).
    static func isEnough(_ identity: ResourceIdentity, as type: AssetResourceType) -> Bool {
        guard identity.issues.isEmpty else { return false }
        guard type == .pairedVideo else { return true }
        guard let time = identity.stillImageTime, identity.stillImageFrame != nil else { return false }
        return time >= 0 && time < (identity.duration ?? .infinity)
    }
}
