#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CCurl

/// One attempt of one HTTP request through a libcurl easy handle: sets the options, streams the
/// body from an `S3Body`, collects the answer's headers, and keeps its body in memory or writes it
/// to a file. An error answer's body (S3's XML error document) is kept apart, up to 64 KiB.
final class CurlExchange {
    /// Where a successful answer's body goes.
    enum Destination {
        /// Kept in memory, at most `limit` bytes (more fails the attempt).
        case memory(limit: Int)
        /// Written to `descriptor` from `offset` (with `pwrite`).
        case descriptor(Int32, offset: UInt64)
    }

    /// What came back.
    enum Outcome {
        /// An HTTP answer with its status, headers (names lowercased) and body.
        case answered(status: Int, headers: [String: String], body: [UInt8], errorBody: [UInt8], written: UInt64)
        /// No usable answer: curl's code and message.
        case transportFailed(code: CURLcode, message: String)
        /// The body to send could not be read.
        case bodyUnreadable(String)
        /// The answer could not be kept (file write failed, or over the memory limit).
        case responseUnwritable(String)
    }

    private let handle: UnsafeMutableRawPointer
    private let body: S3Body?
    private let destination: Destination
    private var bodyPosition: UInt64 = 0
    private var headers: [String: String] = [:]
    private var received: [UInt8] = []
    private var errorBody: [UInt8] = []
    private var written: UInt64 = 0
    private var bodyFailure: String?
    private var destinationFailure: String?

    private init(handle: UnsafeMutableRawPointer, body: S3Body?, destination: Destination) {
        self.handle = handle
        self.body = body
        self.destination = destination
    }

    /// Runs the request once on `handle` and returns what came back.
    static func perform(
        handle: UnsafeMutableRawPointer, method: String, url: String, headers: [String], body: S3Body?,
        destination: Destination, configuration: S3Configuration
    ) -> Outcome {
        let exchange = CurlExchange(handle: handle, body: body, destination: destination)
        return exchange.run(method: method, url: url, headerLines: headers, configuration: configuration)
    }

    private func run(method: String, url: String, headerLines: [String], configuration: S3Configuration) -> Outcome {
        var list: UnsafeMutablePointer<curl_slist>?
        for line in headerLines { list = curl_slist_append(list, line) }
        defer { curl_slist_free_all(list) }
        let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorText.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        defer { errorText.deallocate() }
        let context = Unmanaged.passUnretained(self).toOpaque()

        _ = livepair_curl_setopt_string(handle, CURLOPT_URL, url)
        _ = livepair_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        _ = livepair_curl_setopt_string(handle, CURLOPT_AWS_SIGV4, "aws:amz:\(configuration.region):s3")
        _ = livepair_curl_setopt_string(handle, CURLOPT_USERNAME, configuration.credentials.accessKeyID)
        _ = livepair_curl_setopt_string(handle, CURLOPT_PASSWORD, configuration.credentials.secretAccessKey)
        _ = livepair_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, configuration.connectTimeoutMilliseconds)
        _ = livepair_curl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1)
        _ = livepair_curl_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, configuration.stallTimeoutSeconds)
        _ = livepair_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorText)
        _ = livepair_curl_setopt_list(handle, CURLOPT_HTTPHEADER, list)
        _ = livepair_curl_setopt_callback(handle, CURLOPT_HEADERFUNCTION, curlReceiveHeader)
        _ = livepair_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context)
        _ = livepair_curl_setopt_callback(handle, CURLOPT_WRITEFUNCTION, curlReceiveBody)
        _ = livepair_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context)
        switch method {
        case "PUT":
            _ = livepair_curl_setopt_long(handle, CURLOPT_UPLOAD, 1)
            _ = livepair_curl_setopt_offset(handle, CURLOPT_INFILESIZE_LARGE, curl_off_t(body?.length ?? 0))
            _ = livepair_curl_setopt_callback(handle, CURLOPT_READFUNCTION, curlSendBody)
            _ = livepair_curl_setopt_pointer(handle, CURLOPT_READDATA, context)
        case "HEAD": _ = livepair_curl_setopt_long(handle, CURLOPT_NOBODY, 1)
        case "GET": _ = livepair_curl_setopt_long(handle, CURLOPT_HTTPGET, 1)
        default: _ = livepair_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, method)
        }

        let code = curl_easy_perform(handle)
        if let bodyFailure { return .bodyUnreadable(bodyFailure) }
        if let destinationFailure { return .responseUnwritable(destinationFailure) }
        guard code == CURLE_OK else {
            let message = errorText.pointee != 0 ? String(cString: errorText) : String(cString: curl_easy_strerror(code))
            return .transportFailed(code: code, message: message)
        }
        return .answered(status: status, headers: headers, body: received, errorBody: errorBody, written: written)
    }

    /// The status of the answer being received (0 before the status line).
    private var status: Int {
        var value = 0
        _ = livepair_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &value)
        return value
    }

    // MARK: - Callbacks

    fileprivate func send(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int {
        guard let body else { return 0 }
        switch body.read(into: buffer, count: capacity, at: bodyPosition) {
        case .success(let count):
            bodyPosition += UInt64(count)
            return count
        case .failure(let failure):
            bodyFailure = failure.reason
            return Int(CURL_READFUNC_ABORT)
        }
    }

    fileprivate func receiveHeader(_ line: UnsafeRawBufferPointer) {
        let text = String(decoding: line, as: UTF8.self)
        if text.hasPrefix("HTTP/") {
            headers = [:]  // a new answer (after 100 Continue): forget the previous one's headers
            return
        }
        guard let colon = text.firstIndex(of: ":") else { return }
        let name = text[..<colon].lowercased()
        let value = text[text.index(after: colon)...].trimmingWhitespace()
        headers[name] = value
    }

    fileprivate func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard (200..<300).contains(status) else {
            if errorBody.count < 65_536 { errorBody.append(contentsOf: bytes.prefix(65_536 - errorBody.count)) }
            return true
        }
        switch destination {
        case .memory(let limit):
            guard received.count + bytes.count <= limit else {
                destinationFailure = "the answer is larger than \(limit) bytes"
                return false
            }
            received.append(contentsOf: bytes)
        case .descriptor(let descriptor, let offset):
            var done = 0
            while done < bytes.count {
                let count = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset + written + UInt64(done)))
                if count < 0 {
                    if errno == EINTR { continue }
                    destinationFailure = String(cString: strerror(errno))
                    return false
                }
                done += count
            }
            written += UInt64(bytes.count)
        }
        return true
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces, tabs, carriage returns and line feeds.
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}

private func curlSendBody(_ buffer: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    guard let buffer, let context else { return Int(CURL_READFUNC_ABORT) }
    return Unmanaged<CurlExchange>.fromOpaque(context).takeUnretainedValue().send(into: buffer, capacity: size * count)
}

private func curlReceiveHeader(
    _ buffer: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let buffer, let context else { return 0 }
    Unmanaged<CurlExchange>.fromOpaque(context).takeUnretainedValue()
        .receiveHeader(UnsafeRawBufferPointer(start: buffer, count: size * count))
    return size * count
}

private func curlReceiveBody(
    _ buffer: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let context else { return 0 }
    let bytes = UnsafeRawBufferPointer(start: buffer, count: buffer == nil ? 0 : size * count)
    return Unmanaged<CurlExchange>.fromOpaque(context).takeUnretainedValue().receiveBody(bytes) ? size * count : 0
}
