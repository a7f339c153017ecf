import Foundation
@testable import LivePairLibrary
import LivePairS3
import TestSupport
import Testing

/// The bound on an S3 store's cache of fetched copies, against a real SeaweedFS server: least
/// recently used copies go first, a copy used within the grace period stays, abandoned fetch files
/// go, nothing else in the folder is touched.
@Suite struct StorageS3CacheTrimmingTests {
    /// Sample files and their sizes in bytes (from the manifest's files).
    static let recent = ("live/IMG_2927.HEIC", UInt64(721_093))
    static let oldest = ("live/IMG_3582.mov", UInt64(2_978_475))
    static let older = ("live/exif-at-eof.heic", UInt64(719_479))
    static let newest = ("live/train.mov", UInt64(1_509_892))

    @Test func sizesAreReadWithBinaryUnits() {
        #expect(CacheFolderBound.parseByteSize("4096") == 4_096)
        #expect(CacheFolderBound.parseByteSize("500M") == 500 << 20)
        #expect(CacheFolderBound.parseByteSize("20g") == 20 << 30)
        #expect(CacheFolderBound.parseByteSize("1KiB") == 1_024)
        #expect(CacheFolderBound.parseByteSize("2TB") == 2 << 40)
        for invalid in ["", "G", "-1", "1.5G", "12X", "1 G", "99999999999T", "KiB"] {
            #expect(CacheFolderBound.parseByteSize(invalid) == nil, "\(invalid)")
        }
        #expect(CacheFolderBound.defaultLimitBytes == 4 << 30)
    }

    /// Sets the modification time (the cache's "last used") of `path` to `seconds` ago.
    static func age(_ path: String, by seconds: TimeInterval) throws {
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -seconds)], ofItemAtPath: path)
    }

    @Test func theLeastRecentlyUsedCopiesGoFirstWhenAFetchPassesTheLimit() throws {
        let writer = try S3StoreTestSupport.makeStore("s3trim")
        var digests: [String: ContentDigest] = [:]
        for (file, size) in [Self.recent, Self.oldest, Self.older, Self.newest] {
            let stored = try writer.store(fileAt: SampleMedia.path(file))
            #expect(stored.size == size)
            digests[file] = stored.digest
        }
        let cache = try makeTemporaryDirectory("s3-trim-cache")
        let store = try S3ResourceStore(client: writer.client, bucket: writer.bucket, prefix: writer.prefix, cacheDirectory: cache, cacheLimit: 5_000_000)
        // What a server keeps beside the copies, and what killed fetches left, old and young.
        try FileManager.default.createDirectory(atPath: cache + "/serve/derivatives", withIntermediateDirectories: true)
        let abandoned = "\(cache)/\(digests[Self.newest.0]!.hex).4242-17.tmp"
        let inProgress = "\(cache)/\(digests[Self.oldest.0]!.hex).4243-18.tmp"
        for path in [abandoned, inProgress] { try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path)) }
        try Self.age(abandoned, by: 7_200)

        // Three copies, 4,419,047 bytes: under the limit, all kept; the first fetch of the store
        // read the folder and removed the abandoned fetch file only.
        let recentPath = try store.localPath(for: digests[Self.recent.0]!)
        let oldestPath = try store.localPath(for: digests[Self.oldest.0]!)
        let olderPath = try store.localPath(for: digests[Self.older.0]!)
        #expect(!FileManager.default.fileExists(atPath: abandoned))
        try Self.age(recentPath, by: 300)
        try Self.age(oldestPath, by: 200)
        try Self.age(olderPath, by: 100)
        // Handing out the oldest fetch again makes it the most recently used.
        #expect(try store.localPath(for: digests[Self.recent.0]!) == recentPath)

        // The fourth copy takes the cache to 5,928,939 bytes, past 5,000,000: the least recently
        // used copy (IMG_3582.mov, used 200 s ago) goes, which leaves 2,950,464, under nine tenths.
        let newestPath = try store.localPath(for: digests[Self.newest.0]!)
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: cache))
        #expect(names == Set([recentPath, olderPath, newestPath, inProgress].map { ($0 as NSString).lastPathComponent } + ["serve"]))
        #expect(FileManager.default.fileExists(atPath: cache + "/serve/derivatives"))
        #expect(store.cacheBound.trim() == Self.recent.1 + Self.older.1 + Self.newest.1)

        // A removed copy is fetched again when asked for, whole and checked.
        let again = try store.localPath(for: digests[Self.oldest.0]!)
        #expect(ContentDigest.of(try SampleMedia.bytes(Self.oldest.0)) == ContentDigest.of([UInt8](try Data(contentsOf: URL(fileURLWithPath: again)))))
    }

    @Test func aCopyUsedWithinTheGracePeriodIsKeptOverTheLimit() throws {
        let writer = try S3StoreTestSupport.makeStore("s3grace")
        let stored = try writer.store(fileAt: SampleMedia.path(Self.oldest.0))
        let cache = try makeTemporaryDirectory("s3-grace-cache")
        let store = try S3ResourceStore(client: writer.client, bucket: writer.bucket, prefix: writer.prefix, cacheDirectory: cache, cacheLimit: 1_000_000)
        // 2,978,475 bytes against a limit of 1,000,000: the copy just handed out stays.
        let path = try store.localPath(for: stored.digest)
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(store.cacheBound.trim() == Self.oldest.1)
        // Once the grace period has passed without a use, it goes.
        #expect(store.cacheBound.trim(now: time(nil) + CacheFolderBound.grace + 1) == 0)
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
