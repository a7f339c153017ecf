import LivePairLogging

/// One JSON line per request: method, route, status, bytes in and out, milliseconds, upload ID,
/// the owner's hash and the upload's outcome. Never a token, a query string or an owner name.
struct RequestLog: Sendable {
    let logger: Logger

    func record(_ record: ExchangeRecord) {
        var metadata: LogMetadata = [
            "method": .string(record.request.method),
            "route": .string(record.response?.annotations["route"] ?? "-"),
            "status": .int(record.response?.status ?? 0),
            "bytes_in": .int(Int(record.bytesReceived)),
            "bytes_out": .int(Int(record.completed ? record.response?.bodyLength ?? 0 : 0)),
            "ms": .double(record.seconds * 1000),
            "completed": .bool(record.completed),
        ]
        for key in ["owner_hash", "upload_id", "outcome"] {
            if let value = record.response?.annotations[key] { metadata[key] = .string(value) }
        }
        if record.response == nil { metadata["route"] = "-" }
        logger.info(record.completed ? "request" : "request aborted", metadata: metadata)
    }
}
