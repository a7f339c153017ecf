import LivePairS3

/// The store's identity marker: the object `<prefix>.library`, one line naming the library (its
/// catalog's identity) the store belongs to, as `DirectoryStore`'s `.library` file. It is written
/// once (`If-None-Match: *`), so two nodes claiming an unmarked store at once cannot both win, and
/// it is not a resource: `allDigests()` never lists it and the garbage collection never removes it.
extension S3ResourceStore {
    /// The marker object's name under the prefix.
    public static let identityObjectName = ".library"

    /// The marker object's key.
    public var identityKey: String { prefix + Self.identityObjectName }

    /// The identity the store is marked with, or nil when the marker object does not exist. Throws
    /// when it cannot be read (server down, wrong secret, missing bucket).
    public func libraryIdentity() throws(ResourceStoreError) -> String? {
        let bytes: [UInt8]
        do throws(S3Error) {
            bytes = try client.get(bucket: bucket, key: identityKey, maximumSize: 256)
        } catch where error.kind == .noSuchKey {
            return nil
        } catch {
            throw .objectStore(error)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        return text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
    }

    /// Marks the store as `identity`'s unless it is marked already (a write-once PUT: when another
    /// node's marker won, that one is read back); returns the identity the store carries afterwards.
    @discardableResult
    public func claim(libraryIdentity identity: String) throws(ResourceStoreError) -> String {
        if let existing = try libraryIdentity() { return existing }
        do throws(S3Error) {
            try client.put(
                bucket: bucket, key: identityKey, body: .bytes(Array((identity + "\n").utf8)), contentType: "text/plain",
                writeOnce: true)
        } catch where error.kind == .preconditionFailed {
            // Another node marked the store first: its marker is the store's identity.
        } catch {
            throw .objectStore(error)
        }
        return try libraryIdentity() ?? identity
    }
}
