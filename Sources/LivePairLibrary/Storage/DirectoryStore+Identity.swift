#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The store's identity marker: `<directory>/.library`, one line naming the library (its catalog's
/// identity) the store belongs to. A library removes stored files only when its catalog carries
/// the same identity, so a catalog that is empty, replaced or another library's never makes it
/// delete this store's files.
extension DirectoryStore {
    /// The marker file's name inside the store directory.
    public static let identityFileName = ".library"

    /// The identity the store is marked with, or nil when it has no marker (a store from before
    /// markers, or one being created). Throws when the marker cannot be read.
    public func libraryIdentity() throws(ResourceStoreError) -> String? {
        let path = directory + "/" + Self.identityFileName
        guard POSIXFile.status(path) != nil else { return nil }
        let descriptor = try POSIXFile.openForReading(path)
        defer { close(descriptor) }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 256, alignment: 1)
        defer { buffer.deallocate() }
        let count = try POSIXFile.read(descriptor, into: buffer, count: 256, at: 0, path: path)
        let bytes = Array(UnsafeRawBufferPointer(start: buffer, count: count))
        let text = String(decoding: bytes[..<count], as: UTF8.self)
        return text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
    }

    /// Marks the store as `identity`'s, durably, unless it is marked already; returns the identity
    /// the store carries afterwards (the existing one when it had a marker). Safe when several
    /// processes claim at once: exactly one marker is written, complete.
    @discardableResult
    public func claim(libraryIdentity identity: String) throws(ResourceStoreError) -> String {
        if let existing = try libraryIdentity() { return existing }
        let (temporary, descriptor) = try createTemporaryFile()
        defer { discard(temporary: temporary, descriptor: descriptor) }
        let line = Array((identity + "\n").utf8)
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: line.count, alignment: 1)
        defer { buffer.deallocate() }
        buffer.copyMemory(from: line, byteCount: line.count)
        try POSIXFile.write(descriptor, buffer, count: line.count, path: temporary)
        try POSIXFile.sync(descriptor, path: temporary)
        let code = POSIXFile.hardLink(temporary, directory + "/" + Self.identityFileName)
        guard code == 0 || code == EEXIST else { throw POSIXFile.failure(directory + "/" + Self.identityFileName, code) }
        try POSIXFile.syncDirectory(directory)
        return try libraryIdentity() ?? identity
    }
}
