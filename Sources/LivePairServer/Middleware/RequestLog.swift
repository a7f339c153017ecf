import LivePairLogging

/// One JSON line per request: method, route, status, bytes in and out, milliseconds, the
/// `X-Request-Id`, upload ID, the owner's hash and the upload's outcome. Never a token, a query
/// string or an owner name. A 5xx is written at the error level with its cause (`error`: the
/// library's error; `s3_status`, `s3_code`, `s3_endpoint`, `s3_bucket`; `sqlstate`), or the
/// message the client got when the server knows no more.
struct RequestLog: Sendable {
    let logger: Logger

    func record(_ record: ExchangeRecord) {
        let status = record.response?.status ?? 0
        var metadata: LogMetadata = [
            "method": .string(record.request.method),
            "route": .string(record.response?.annotations["route"] ?? "-"),
            "status": .int(status),
            "bytes_in": .int(Int(record.bytesReceived)),
            "bytes_out": .int(Int(record.completed ? record.response?.bodyLength ?? 0 : 0)),
            "ms": .double(record.seconds * 1000),
            "completed": .bool(record.completed),
            "request_id": .string(record.requestID),
        ]
        for key in ["owner_hash", "upload_id", "outcome"] {
            if let value = record.response?.annotations[key] { metadata[key] = .string(value) }
        }
        if record.response == nil { metadata["route"] = "-" }
        guard status >= 500, let response = record.response else {
            logger.info(record.completed ? "request" : "request aborted", metadata: metadata)
            return
        }
        for (key, value) in response.annotations where key.hasPrefix("cause.") {
            let name = String(key.dropFirst("cause.".count))
            metadata[name] = name == "s3_status" ? .int(Int(value) ?? 0) : .string(value)
        }
        if metadata["error"] == nil { metadata["error"] = .string(response.annotations["error"] ?? "HTTP \(status)") }
        logger.error("request failed", metadata: metadata)
    }
}
