#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LivePairFormats

extension DirectoryStore {
    /// Makes the files of `digests` durable, with the entries naming them: one `syncfs` of the
    /// store's file system where Linux has it (one disk flush for the whole group), else each file is
    /// `fsync`ed once, then each subdirectory that holds one of them, once. This is the one flush of
    /// a group of files stored with `StoreDurability.deferred`; call it before committing anything
    /// that names them. Throws `notFound` for a digest that is not stored (removed meanwhile).
    public func flush(_ digests: [ContentDigest]) throws(ResourceStoreError) {
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

extension DirectoryStore {
    /// The stored file, read with positioned reads.
    public func byteSource(for digest: ContentDigest) throws(ResourceStoreError) -> any ByteSource {
        let path = path(for: digest)
        do throws(FormatError) {
            return try FileByteSource(path: path)
        } catch {
            if POSIXFile.status(path) == nil { throw .notFound(digest) }
            throw .io(path: path, reason: "\(error)")
        }
    }

    /// The stored file itself (whether or not it exists: readers report a missing file).
    public func localPath(for digest: ContentDigest) throws(ResourceStoreError) -> String { path(for: digest) }

    /// The stored file, when it is there.
    public func localPathIfPresent(for digest: ContentDigest) -> String? { contains(digest) ? path(for: digest) : nil }

    /// Seconds since the stored file's last status change (its creation or link).
    public func secondsSinceWritten(_ digest: ContentDigest) -> Double? {
        LibraryFileSystem.secondsSinceStatusChange(path(for: digest))
    }
}
