#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CCurl

/// A successful answer.
struct S3Answer {
    let status: Int
    let headers: [String: String]
    let body: [UInt8]
    let written: UInt64
}

extension S3Client {
    /// Sends one request, retrying server errors and transport failures as the retry policy says,
    /// and returns the successful answer (2xx; 206 exactly when a `range` was asked) or throws the
    /// typed error of the last attempt.
    func send(
        _ target: S3Target, method: String, headers: [String], body: S3Body? = nil, query: String? = nil,
        destination: CurlExchange.Destination = .memory(limit: 64 << 20), range: ClosedRange<UInt64>? = nil
    ) throws(S3Error) -> S3Answer {
        let url = query.map { "\(target.url)?\($0)" } ?? target.url
        let policy = configuration.retry
        var attempt = 0
        while true {
            attempt += 1
            guard let handle = handles.borrow() else {
                throw target.error(.unreachable, detail: "libcurl could not be initialized", attempts: attempt)
            }
            counter.count(method: method, ranged: range != nil, listing: query != nil, retry: attempt > 1)
            let outcome = CurlExchange.perform(
                handle: handle.pointer, method: method, url: url, headers: headers, body: body, destination: destination,
                configuration: configuration)
            handles.giveBack(handle)
            let failure: S3Error
            let retryable: Bool
            switch outcome {
            case .answered(let status, let answerHeaders, let answerBody, let errorBody, let written):
                if (200..<300).contains(status) {
                    guard range == nil || status == 206 else {
                        throw target.error(
                            .invalidResponse, status: status, detail: "the server ignored the byte range", attempts: attempt)
                    }
                    return S3Answer(status: status, headers: answerHeaders, body: answerBody, written: written)
                }
                failure = Self.statusError(target, status: status, errorDocument: errorBody, attempts: attempt)
                retryable = status >= 500 || status == 429
            case .transportFailed(let code, let message):
                failure = target.error(.unreachable, detail: message, attempts: attempt)
                retryable = Self.retryableTransportCodes.contains(code)
            case .bodyUnreadable(let reason):
                throw target.error(.bodyUnreadable, detail: reason, attempts: attempt)
            case .responseUnwritable(let reason):
                throw target.error(.responseUnwritable, detail: reason, attempts: attempt)
            }
            guard retryable, attempt < policy.attempts else { throw failure }
            usleep(UInt32(policy.delayMilliseconds(after: attempt) * 1_000))
        }
    }

    /// Transport failures worth another attempt: nothing listening, a timeout, a connection reset
    /// or closed early, an answer cut short.
    static let retryableTransportCodes: [CURLcode] = [
        CURLE_COULDNT_CONNECT, CURLE_OPERATION_TIMEDOUT, CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING,
        CURLE_PARTIAL_FILE,
    ]

    /// The typed error for an HTTP error status, with the server's code and message from its XML
    /// error document when it sent one.
    static func statusError(_ target: S3Target, status: Int, errorDocument: [UInt8], attempts: Int) -> S3Error {
        let document = String(decoding: errorDocument, as: UTF8.self)[...]
        let code = S3XML.text("Code", in: document)
        let message = S3XML.text("Message", in: document) ?? ""
        let kind: S3Error.Kind
        switch (status, code) {
        case (403, _): kind = .accessDenied
        case (404, "NoSuchBucket"): kind = .noSuchBucket
        case (404, _): kind = .noSuchKey
        case (412, _): kind = .preconditionFailed
        case (416, _): kind = .rangeNotSatisfiable
        case (400, "BadDigest"), (400, "XAmzContentSHA256Mismatch"): kind = .checksumMismatch
        case (500..., _), (429, _): kind = .serverError
        default: kind = .unexpectedStatus
        }
        return target.error(kind, status: status, code: code, detail: message, attempts: attempts)
    }
}
