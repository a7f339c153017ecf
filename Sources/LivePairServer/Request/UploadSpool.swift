import Foundation
import LivePairCrypto

/// Streams a request body into a temporary file while hashing it, so an upload is never held in
/// memory whole; stops keeping bytes once the limit is passed.
final class UploadSpool {
    /// The temporary file.
    let path: String
    /// The most bytes kept.
    let limit: Int64
    private var descriptor: Int32
    private var hasher = SHA256()
    private(set) var size: Int64 = 0
    private(set) var failure: String?

    /// Creates the temporary file (exclusively, mode 0600) at `path`.
    init(path: String, limit: Int64) throws(HTTPError) {
        self.path = path
        self.limit = limit
        descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .internal("cannot create the upload file: \(String(cString: strerror(errno)))") }
    }

    /// Whether more than `limit` bytes arrived.
    var isTooLarge: Bool { size > limit }

    /// Appends one chunk (after the limit only counts it).
    func append(_ bytes: UnsafeRawBufferPointer) {
        size += Int64(bytes.count)
        guard failure == nil, !isTooLarge, let base = bytes.baseAddress else {
            if isTooLarge { discard() }
            return
        }
        hasher.update(bytes)
        var written = 0
        while written < bytes.count {
            let result = write(descriptor, base + written, bytes.count - written)
            if result < 0 {
                if errno == EINTR { continue }
                failure = "cannot write the upload file: \(String(cString: strerror(errno)))"
                discard()
                return
            }
            written += result
        }
    }

    /// Closes the file and says what was received; the file stays for the caller unless the
    /// body was too large or a write failed.
    func finish() -> ReceivedBody {
        if isTooLarge { return .tooLarge(limit: limit) }
        if let failure { return .failed(failure) }
        closeFile()
        let digest = hasher.finalize()
        return .spooled(SpooledUpload(path: path, size: size, sha256: digest))
    }

    /// Closes and removes the file (an aborted or refused upload).
    func discard() {
        closeFile()
        unlink(path)
    }

    private func closeFile() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
    }

    deinit { closeFile() }
}
