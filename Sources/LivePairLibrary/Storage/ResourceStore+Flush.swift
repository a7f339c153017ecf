#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ResourceStore {
    /// Makes the files of `digests` durable, with the entries naming them: one `syncfs` of the
    /// store's file system where Linux has it (one disk flush for the whole group), else each file is
    /// `fsync`ed once, then each subdirectory that holds one of them, once. This is the one flush of
    /// a group of files stored with `StoreDurability.deferred`; call it before committing anything
    /// that names them. Throws `notFound` for a digest that is not stored (removed meanwhile).
    public func flush(_ digests: some Collection<ContentDigest>) throws(ResourceStoreError) {
        let unique = Set(digests).sorted { $0.hex < $1.hex }
        guard !unique.isEmpty else { return }
        if FileSystemSync.isAvailable {
            for digest in unique where POSIXFile.status(path(for: digest)) == nil { throw .notFound(digest) }
            if try FileSystemSync.flush(containing: directory) { return }
        }
        for digest in unique {
            let path = path(for: digest)
            let descriptor: Int32
            do throws(ResourceStoreError) {
                descriptor = try POSIXFile.openForReading(path)
            } catch {
                if POSIXFile.status(path) == nil { throw .notFound(digest) }
                throw error
            }
            defer { close(descriptor) }
            try POSIXFile.sync(descriptor, path: path)
        }
        for shard in Set(unique.map(shardDirectory(for:))).sorted() {
            try POSIXFile.syncDirectory(shard)
        }
    }
}
