import Foundation

/// A minimal HTTP/1.1 client on one keep-alive loopback connection, so the benchmark measures
/// the server rather than a client library: sends a request (with an in-memory body), reads the
/// status line, the headers and a `Content-Length` body.
final class LoopbackHTTPClient {
    private let port: UInt16
    private var descriptor: Int32 = -1
    private var buffer: [UInt8] = []

    init(port: UInt16) { self.port = port }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// What came back.
    struct Response {
        var status: Int
        var bodyLength: Int
        var body: [UInt8]
    }

    /// Sends `method path` with `headers` and `body`; reconnects once when the connection was closed.
    func send(_ method: String, _ path: String, headers: [String: String] = [:], body: [UInt8] = []) throws -> Response {
        if descriptor < 0 { try connectSocket() }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.count)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        if !write(Array(head.utf8)) || !write(body) {
            try reconnect()
            guard write(Array(head.utf8)), write(body) else { throw ClientError("cannot send") }
        }
        return try readResponse()
    }

    /// Sends `method path` with `headers` and the file at `path` as the body, straight from the
    /// page cache with `sendfile` (as a client uploading a file from disk would, without copying
    /// it through memory); reconnects once when the connection was closed.
    func send(_ method: String, _ path: String, headers: [String: String] = [:], file: String) throws -> Response {
        let source = open(file, O_RDONLY | O_CLOEXEC)
        guard source >= 0 else { throw ClientError("cannot open \(file)") }
        defer { close(source) }
        var info = stat()
        guard fstat(source, &info) == 0 else { throw ClientError("cannot stat \(file)") }
        let size = Int(info.st_size)
        if descriptor < 0 { try connectSocket() }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(size)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        if !write(Array(head.utf8)) || !sendFile(source, size: size) {
            try reconnect()
            guard write(Array(head.utf8)), sendFile(source, size: size) else { throw ClientError("cannot send") }
        }
        return try readResponse()
    }

    private func sendFile(_ source: Int32, size: Int) -> Bool {
        var offset = off_t(0)
        while Int(offset) < size {
            let sent = sendfile(descriptor, source, &offset, size - Int(offset))
            if sent <= 0 { return false }
        }
        return true
    }

    private func reconnect() throws {
        close(descriptor)
        descriptor = -1
        buffer = []
        try connectSocket()
    }

    private func connectSocket() throws {
        guard let socket = LoopbackSocket.connect(port: port, noDelay: true) else { throw ClientError("cannot connect") }
        descriptor = socket
    }

    private func write(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let result = bytes.withUnsafeBytes { Foundation.send(descriptor, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if result <= 0 { return false }
            sent += result
        }
        return true
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { throw ClientError("connection closed") }
        buffer += chunk[0..<count]
    }

    private func readResponse() throws -> Response {
        let separator: [UInt8] = [13, 10, 13, 10]
        var end: Int?
        while end == nil {
            if buffer.count >= 4 {
                end = (0...(buffer.count - 4)).first { buffer[$0..<$0 + 4].elementsEqual(separator) }
            }
            if end == nil { try fill() }
        }
        let headerEnd = end! + 4
        let head = String(decoding: buffer[0..<end!], as: UTF8.self)
        let lines = head.components(separatedBy: "\r\n")
        let status = Int(lines[0].split(separator: " ").dropFirst().first ?? "") ?? 0
        var length = 0
        var closes = false
        for line in lines.dropFirst() {
            let lower = line.lowercased()
            if lower.hasPrefix("content-length:") { length = Int(lower.dropFirst(15).trimmingCharacters(in: .whitespaces)) ?? 0 }
            if lower.hasPrefix("connection:") && lower.contains("close") { closes = true }
        }
        while buffer.count < headerEnd + length { try fill() }
        let body = Array(buffer[headerEnd..<headerEnd + length])
        buffer.removeFirst(headerEnd + length)
        if closes {
            close(descriptor)
            descriptor = -1
            buffer = []
        }
        return Response(status: status, bodyLength: length, body: body)
    }

    struct ClientError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
