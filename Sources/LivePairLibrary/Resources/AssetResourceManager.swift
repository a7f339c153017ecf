import Dispatch
import LivePairFormats
import Synchronization

/// Reads resources out of a library, as PhotoKit's `PHAssetResourceManager`: as a stream of
/// chunks (callbacks or an async sequence) or written to a file, so a backend can serve a Live
/// Photo's two halves to a client that rebuilds it.
public final class AssetResourceManager: Sendable {
    /// How data is delivered.
    public struct RequestOptions: Sendable, Hashable {
        /// Bytes per chunk (at least 1).
        public var chunkSize: Int

        /// Options with 1 MiB chunks.
        public init(chunkSize: Int = 1 << 20) { self.chunkSize = max(1, chunkSize) }
    }

    /// Identifies a data request, for cancelling it.
    public typealias RequestID = Int

    private let library: PhotoLibrary
    private let nextRequest = Atomic<Int>(1)
    private let cancelled = Mutex<Set<Int>>([])

    /// A manager reading from `library`.
    public init(library: PhotoLibrary) { self.library = library }

    /// Reads `resource` on a background queue, calling `dataReceivedHandler` with each chunk in
    /// order, then `completionHandler` once with nil on success or the error. A cancelled request
    /// completes with no further chunks.
    @discardableResult
    public func requestData(
        for resource: LibraryAssetResource, options: RequestOptions = RequestOptions(),
        dataReceivedHandler: @escaping @Sendable ([UInt8]) -> Void,
        completionHandler: @escaping @Sendable (LibraryError?) -> Void
    ) -> RequestID {
        let request = nextRequest.add(1, ordering: .relaxed).oldValue
        DispatchQueue.global(qos: .userInitiated).async {
            do throws(LibraryError) {
                try self.readChunks(of: resource, chunkSize: options.chunkSize) { chunk in
                    if self.cancelled.withLock({ $0.contains(request) }) { return false }
                    dataReceivedHandler(chunk)
                    return true
                }
                self.cancelled.withLock { _ = $0.remove(request) }
                completionHandler(nil)
            } catch {
                self.cancelled.withLock { _ = $0.remove(request) }
                completionHandler(error)
            }
        }
        return request
    }

    /// Stops a request made with `requestData`; no chunks follow.
    public func cancelDataRequest(_ request: RequestID) {
        _ = cancelled.withLock { $0.insert(request) }
    }

    /// The bytes of `resource` as an asynchronous sequence of chunks; it throws `LibraryError`.
    public func dataChunks(
        for resource: LibraryAssetResource, options: RequestOptions = RequestOptions()
    ) -> AsyncThrowingStream<[UInt8], any Error> {
        AsyncThrowingStream(bufferingPolicy: .unbounded) { continuation in
            let request = requestData(
                for: resource, options: options, dataReceivedHandler: { chunk in continuation.yield(chunk) },
                completionHandler: { error in continuation.finish(throwing: error) })
            continuation.onTermination = { [weak self] termination in
                if case .cancelled = termination { self?.cancelDataRequest(request) }
            }
        }
    }

    /// Writes `resource` to `path` atomically (a temporary file in the same directory, flushed and
    /// renamed); fails when `path` exists. `path` is the caller's choice; use
    /// `LibraryAssetResource.exportFilename` to name a file after the original name safely.
    public func writeData(
        for resource: LibraryAssetResource, toFile path: String, options: RequestOptions = RequestOptions()
    ) throws(LibraryError) {
        if LibraryFileSystem.exists(path) { throw .io(path: path, reason: "the file exists") }
        var failure: LibraryError?
        do throws(FormatError) {
            try AtomicFileWriter.write(to: path) { (sink: any ByteSink) throws(FormatError) in
                do throws(LibraryError) {
                    try readChunks(of: resource, chunkSize: options.chunkSize) { chunk in
                        do throws(FormatError) {
                            try sink.write(chunk)
                            return true
                        } catch {
                            failure = .io(path: path, reason: error.description)
                            return false
                        }
                    }
                } catch {
                    failure = error
                }
                if failure != nil { throw FormatError.io(path: path, reason: "export stopped") }
            }
        } catch {
            throw failure ?? .io(path: path, reason: error.description)
        }
    }

    /// Every byte of `resource` (for small resources).
    public func data(for resource: LibraryAssetResource) throws(LibraryError) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(resource.size))
        try readChunks(of: resource, chunkSize: 1 << 20) { chunk in
            bytes += chunk
            return true
        }
        return bytes
    }

    /// Reads the stored bytes of `resource` front to back (ranged reads: a chunk at a time from an
    /// S3 object too), handing each chunk to `body` until it returns false. Fails when the resource
    /// is missing or its size differs from the catalog's.
    private func readChunks(
        of resource: LibraryAssetResource, chunkSize: Int, _ body: ([UInt8]) -> Bool
    ) throws(LibraryError) {
        let source: any ByteSource
        do throws(ResourceStoreError) {
            source = try library.store.byteSource(for: resource.digest)
        } catch {
            if case .notFound = error { throw .resourceMissing(resource.digest) }
            throw .store(error)
        }
        let path = source.name
        guard source.size == resource.size else {
            throw .io(path: path, reason: "the stored file has \(source.size) bytes, the catalog says \(resource.size)")
        }
        var offset: UInt64 = 0
        while offset < source.size {
            let count = Int(min(UInt64(chunkSize), source.size - offset))
            let chunk: [UInt8]
            do throws(FormatError) {
                chunk = try source.read(at: offset, count: count)
            } catch {
                throw .io(path: path, reason: error.description)
            }
            offset += UInt64(chunk.count)
            if !body(chunk) { return }
        }
    }
}
