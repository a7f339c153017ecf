#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Flushes a whole file system at once with Linux's `syncfs(2)`: every file's data and every
/// directory entry written before the call is on disk when it returns. One call replaces an
/// `fsync` per file and per directory, and costs one disk flush instead of one each.
///
/// Swift's Glibc module does not declare `syncfs` (it needs `_GNU_SOURCE`), and this module imports
/// no C, so the C library's own symbol is looked up at run time with `dlsym`. Where it is missing
/// (another system) `flush(containing:)` returns false and callers fall back to `fsync`.
enum FileSystemSync {
    private typealias SyncFileSystem = @convention(c) (Int32) -> Int32

    /// The C library's `syncfs`, when it has one.
    private static let syncfs: SyncFileSystem? = {
        #if os(Linux)
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "syncfs") else { return nil }
        return unsafeBitCast(symbol, to: SyncFileSystem.self)
        #else
        return nil
        #endif
    }()

    /// Whether `flush(containing:)` can work here.
    static var isAvailable: Bool { syncfs != nil }

    /// Flushes the file system that holds `path`. Returns false when `syncfs` is not available;
    /// throws when it reports an I/O error (some data may not be on disk).
    static func flush(containing path: String) throws(ResourceStoreError) -> Bool {
        guard let syncfs else { return false }
        let descriptor = try POSIXFile.openForReading(path)
        defer { close(descriptor) }
        while syncfs(descriptor) != 0 {
            if errno != EINTR { throw POSIXFile.failure(path) }
        }
        return true
    }
}
