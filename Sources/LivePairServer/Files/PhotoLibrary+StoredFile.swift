import LivePairLibrary

extension PhotoLibrary {
    /// A local file holding `resource`'s bytes for a response or a decoder (the store's file, or a
    /// cached copy of an S3 object); a store that cannot give one answers 500 without its details.
    func storedFile(for resource: LibraryAssetResource) throws(HTTPError) -> String {
        do throws(LibraryError) {
            return try storagePath(for: resource)
        } catch {
            throw .internal("the resource cannot be read from the store")
        }
    }
}
