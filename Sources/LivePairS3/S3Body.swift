#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LivePairCrypto

/// What a PUT sends: bytes in memory, or a byte range of an open file read with `pread` while the
/// request streams (never loaded whole). A retried request reads the range again from its start.
public enum S3Body: Sendable {
    /// Bytes in memory.
    case bytes([UInt8])
    /// `length` bytes of the open file `descriptor` from `offset`; the caller keeps it open until
    /// the request returns.
    case file(descriptor: Int32, offset: UInt64, length: UInt64)

    /// The number of bytes sent.
    public var length: UInt64 {
        switch self {
        case .bytes(let bytes): return UInt64(bytes.count)
        case .file(_, _, let length): return length
        }
    }

    /// The SHA-256 of the bytes (for `.file`, read once from the file), or why the file could not
    /// be read.
    func sha256() -> Result<[UInt8], S3BodyReadFailure> {
        switch self {
        case .bytes(let bytes): return .success(SHA256.hash(bytes))
        case .file(_, _, let length):
            var hasher = SHA256()
            let chunk = 1 << 20
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunk, alignment: 64)
            defer { buffer.deallocate() }
            var done: UInt64 = 0
            while done < length {
                let wanted = Int(min(UInt64(chunk), length - done))
                switch read(into: buffer, count: wanted, at: done) {
                case .success(let got):
                    hasher.update(UnsafeRawBufferPointer(start: buffer, count: got))
                    done += UInt64(got)
                case .failure(let failure): return .failure(failure)
                }
            }
            return .success(hasher.finalize())
        }
    }

    /// Copies up to `count` bytes from position `position` of the body into `buffer`; the number
    /// copied (0 at the end), or why the file could not be read.
    func read(into buffer: UnsafeMutableRawPointer, count: Int, at position: UInt64) -> Result<Int, S3BodyReadFailure> {
        guard position < length else { return .success(0) }
        let wanted = Int(min(UInt64(count), length - position))
        switch self {
        case .bytes(let bytes):
            bytes.withUnsafeBytes { raw in
                buffer.copyMemory(from: raw.baseAddress! + Int(position), byteCount: wanted)
            }
            return .success(wanted)
        case .file(let descriptor, let offset, _):
            while true {
                let got = pread(descriptor, buffer, wanted, off_t(offset + position))
                if got > 0 { return .success(got) }
                if got == 0 { return .failure(S3BodyReadFailure(reason: "the file ended before its declared length")) }
                if errno == EINTR { continue }
                return .failure(S3BodyReadFailure(reason: String(cString: strerror(errno))))
            }
        }
    }
}

/// Why a file body could not be read.
struct S3BodyReadFailure: Error {
    let reason: String
}
