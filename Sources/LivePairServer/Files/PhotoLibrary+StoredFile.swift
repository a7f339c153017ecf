import LivePairFormats
import LivePairLibrary

extension PhotoLibrary {
    /// A local file holding `resource`'s bytes for a response or a decoder (the store's file, or a
    /// cached copy of an S3 object); a store that cannot give one answers 500 without its details.
    func storedFile(for resource: LibraryAssetResource) throws(HTTPError) -> String {
        do throws(LibraryError) {
            return try storagePath(for: resource)
        } catch {
            throw .internal("the resource cannot be read from the store", cause: error)
        }
    }

    /// The bytes `range` of `resource` (ranged GETs for an S3 store).
    func read(_ resource: LibraryAssetResource, range: ClosedRange<Int64>) throws(HTTPError) -> [UInt8] {
        let count = Int(range.upperBound - range.lowerBound + 1)
        do {
            let bytes = try byteSource(for: resource).read(at: UInt64(range.lowerBound), count: count)
            guard bytes.count == count else { throw HTTPError.internal("the resource is shorter than its catalog entry") }
            return bytes
        } catch {
            throw .internal("the resource cannot be read from the store", cause: error)
        }
    }
}
