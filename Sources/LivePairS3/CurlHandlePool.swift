import CCurl
import Synchronization

/// libcurl's easy handles, kept between requests: a handle remembers its open connections, so a
/// client's requests reuse them instead of connecting each time. A handle is used by one request
/// at a time; the pool hands out a free one or makes a new one.
final class CurlHandlePool: Sendable {
    /// An easy handle (a `CURL *`). Sendable: only the request that borrowed it touches it.
    struct Handle: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer
    }

    /// The most idle handles kept; more are cleaned up when given back.
    private static let idleLimit = 8
    private let idle = Mutex<[Handle]>([])

    /// True once libcurl's process-wide state is set up (done once, on first use).
    static let libraryReady: Bool = livepair_curl_global_init() == CURLE_OK

    /// A handle for one request, nil when libcurl cannot make one.
    func borrow() -> Handle? {
        guard Self.libraryReady else { return nil }
        if let handle = idle.withLock({ $0.popLast() }) { return handle }
        return curl_easy_init().map(Handle.init)
    }

    /// Returns a handle after its request, its options reset (its connections are kept).
    func giveBack(_ handle: Handle) {
        curl_easy_reset(handle.pointer)
        let kept = idle.withLock { handles in
            guard handles.count < Self.idleLimit else { return false }
            handles.append(handle)
            return true
        }
        if !kept { curl_easy_cleanup(handle.pointer) }
    }

    deinit {
        for handle in idle.withLock({ $0 }) { curl_easy_cleanup(handle.pointer) }
    }
}
