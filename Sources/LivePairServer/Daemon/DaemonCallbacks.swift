import CMicroHTTPD

/// The C callbacks libmicrohttpd's worker threads call. They live in a nonisolated type: a
/// closure at the top level of `main.swift` would be main-actor isolated in Swift 6 and trap
/// (`dispatch_assert_queue`) when a worker thread called it. Each forwards to the `HTTPDaemon`
/// whose unretained pointer is the callback's context.
enum DaemonCallbacks {
    /// `MHD_AccessHandlerCallback`: called when headers arrive, for each chunk of body, and at the end.
    static let access: MHD_AccessHandlerCallback = {
        context, connection, _, method, version, uploadData, uploadDataSize, connectionContext in
        guard let context, let connection, let connectionContext, let uploadDataSize, let version else { return livepair_mhd_no() }
        let daemon = Unmanaged<HTTPDaemon>.fromOpaque(context).takeUnretainedValue()
        return daemon.access(
            connection: connection, method: method.map { String(cString: $0) } ?? "GET", version: version,
            uploadData: uploadData, uploadDataSize: uploadDataSize, slot: connectionContext)
            ? livepair_mhd_yes() : livepair_mhd_no()
    }

    /// `MHD_RequestCompletedCallback`: the request ended (response sent, client gone, timeout).
    static let completed: MHD_RequestCompletedCallback = { context, connection, connectionContext, code in
        guard let context else { return }
        let daemon = Unmanaged<HTTPDaemon>.fromOpaque(context).takeUnretainedValue()
        if let connection { daemon.connections.requestEnded(connection) }
        guard let connectionContext, let pointer = connectionContext.pointee else { return }
        connectionContext.pointee = nil
        let exchange = Unmanaged<Exchange>.fromOpaque(pointer).takeRetainedValue()
        daemon.completed(exchange, normally: livepair_mhd_completed_ok(code) != 0)
    }

    /// `MHD_NotifyConnectionCallback`: a connection opened or closed (closed: before its socket is).
    static let connection: MHD_NotifyConnectionCallback = { context, connection, _, code in
        guard let context, let connection else { return }
        let daemon = Unmanaged<HTTPDaemon>.fromOpaque(context).takeUnretainedValue()
        if livepair_mhd_connection_opened(code) != 0 {
            daemon.connections.opened(connection, socket: livepair_mhd_connection_socket(connection))
        } else {
            daemon.connections.closed(connection)
            daemon.targets.forget(connection)
        }
    }

    /// The URI log callback: a request line arrived; keeps its target as sent and takes the query
    /// away from libmicrohttpd (the server parses it). Returns no request context.
    static let target: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = {
        context, target, connection in
        guard let context, let target, let connection else { return nil }
        let daemon = Unmanaged<HTTPDaemon>.fromOpaque(context).takeUnretainedValue()
        let bytes = UnsafeRawPointer(target).withMemoryRebound(to: UInt8.self, capacity: strlen(target)) {
            Array(UnsafeBufferPointer(start: $0, count: strlen(target)))
        }
        let sent = RequestTargets.Sent(bytes: bytes, address: UInt(bitPattern: Int(bitPattern: target)))
        daemon.targets.record(sent, for: connection)
        livepair_mhd_detach_query(target)
        return nil
    }

    /// `MHD_ContentReaderCallback` of a streamed response: the `ResponseStream`'s queued bytes.
    static let streamRead: MHD_ContentReaderCallback = { context, _, buffer, capacity in
        guard let context, let buffer else { return livepair_mhd_end_of_stream() }
        let stream = Unmanaged<ResponseStream>.fromOpaque(context).takeUnretainedValue()
        let count = stream.read(into: UnsafeMutableRawPointer(buffer), capacity: capacity)
        return count < 0 ? livepair_mhd_end_of_stream() : count
    }

    /// `MHD_ContentReaderFreeCallback` of a streamed response: releases its `ResponseStream`.
    static let streamRelease: MHD_ContentReaderFreeCallback = { context in
        guard let context else { return }
        let stream = Unmanaged<ResponseStream>.fromOpaque(context).takeRetainedValue()
        stream.release()
    }

    /// `MHD_KeyValueIterator`: collects headers into a `HeaderCollector`.
    static let collect: MHD_KeyValueIterator = { context, _, key, value in
        guard let context, let key else { return livepair_mhd_yes() }
        let collector = Unmanaged<HeaderCollector>.fromOpaque(context).takeUnretainedValue()
        collector.add(String(cString: key), value.map { String(cString: $0) } ?? "")
        return livepair_mhd_yes()
    }
}

/// The headers `DaemonCallbacks.collect` gathers, by lowercased name (the last one wins), and
/// the names sent twice with different values.
final class HeaderCollector {
    var values: [String: String] = [:]
    var conflicting: Set<String> = []

    func add(_ name: String, _ value: String) {
        let key = name.lowercased()
        if let earlier = values[key], earlier != value { conflicting.insert(key) }
        values[key] = value
    }
}
