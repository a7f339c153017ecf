import Foundation

/// A client of `GET /v1/changes` with `Accept: text/event-stream` over a bare connection: sends
/// the request, then decodes the chunked body into events as they arrive.
final class EventStreamClient {
    /// One Server-Sent Event.
    struct Event {
        var name: String
        var id: String?
        var data: String
    }

    private let connection: RawConnection
    private var raw: [UInt8] = []
    private var decoded: [UInt8] = []
    private var headersDone = false
    /// The response's status line and headers.
    private(set) var head = ""

    /// Opens the stream for `token` on the server at `port`, with any `headers` added.
    init(port: UInt16, token: String, query: String = "", headers: [String: String] = [:]) throws {
        connection = try RawConnection(port: port)
        var request = "GET /v1/changes\(query) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
        request += "Authorization: Bearer \(token)\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        connection.send(request + "\r\n")
    }

    /// The next event, or nil when none arrives within `timeout` seconds (comments are skipped).
    func next(timeout: Double) -> Event? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let event = takeEvent() { return event }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return nil }
            let bytes = connection.read(timeout: min(remaining, 1))
            if bytes == nil { return nil }  // closed
            raw += bytes ?? []
            decode()
        }
    }

    /// Moves whole chunks from `raw` to `decoded` (after the headers).
    private func decode() {
        if !headersDone {
            guard let end = find([13, 10, 13, 10], in: raw) else { return }
            head = String(decoding: raw[..<end], as: UTF8.self)
            raw.removeFirst(end + 4)
            headersDone = true
        }
        while let lineEnd = find([13, 10], in: raw) {
            let sizeText = String(decoding: raw[..<lineEnd], as: UTF8.self).split(separator: ";")[0]
            guard let size = Int(sizeText, radix: 16), raw.count >= lineEnd + 2 + size + 2 else { return }
            decoded += raw[(lineEnd + 2)..<(lineEnd + 2 + size)]
            raw.removeFirst(lineEnd + 2 + size + 2)
        }
    }

    private func takeEvent() -> Event? {
        while let end = find([10, 10], in: decoded) {
            let block = String(decoding: decoded[..<end], as: UTF8.self)
            decoded.removeFirst(end + 2)
            var event = Event(name: "message", id: nil, data: "")
            var hasField = false
            for line in block.split(separator: "\n") where !line.hasPrefix(":") {
                hasField = true
                if line.hasPrefix("event: ") { event.name = String(line.dropFirst(7)) }
                if line.hasPrefix("id: ") { event.id = String(line.dropFirst(4)) }
                if line.hasPrefix("data: ") { event.data += String(line.dropFirst(6)) }
            }
            if hasField { return event }
        }
        return nil
    }

    private func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        for index in 0...(bytes.count - needle.count) where Array(bytes[index..<(index + needle.count)]) == needle { return index }
        return nil
    }
}
