import CMicroHTTPD
import Dispatch
import Foundation
import Synchronization

/// libmicrohttpd in thread-pool mode behind a Swift surface: hands each request to an
/// `ExchangeHandler`, streams bodies into spool files, runs blocking work on its own queue with
/// the connection suspended (so a worker thread never waits for an ingestion or a decode), and
/// stops gracefully.
public final class HTTPDaemon: @unchecked Sendable {
    // @unchecked: `daemon` is written in init and stop only (stop is called once, by its owner).
    private var daemon: OpaquePointer?
    private let handler: any ExchangeHandler
    private let workQueue = DispatchQueue(label: "livepair.serve.work", qos: .userInitiated, attributes: .concurrent)
    private let activity = Mutex(Activity())
    private let stopping = Atomic<Bool>(false)
    private let requestTimeout: Double
    let connections: ConnectionWatch
    let targets = RequestTargets()
    /// The port it listens on.
    public private(set) var port: UInt16
    /// The most connections it keeps open (configured, or sized from the open-file limit, which
    /// is raised to its hard limit first).
    public let connectionLimit: Int

    private struct Activity {
        var exchanges = 0
        var work = 0
    }

    /// Starts listening.
    /// - Throws: `HTTPError` 500 whose message says why the address cannot be listened on.
    public init(configuration: DaemonConfiguration, handler: any ExchangeHandler) throws(HTTPError) {
        self.handler = handler
        requestTimeout = configuration.requestTimeout
        let openFiles = livepair_raise_open_file_limit()
        connectionLimit = configuration.connectionLimit ?? DaemonConfiguration.connectionLimit(openFiles: openFiles)
        connections = ConnectionWatch(
            headerTimeout: configuration.headerTimeout,
            highWater: connectionLimit - max(2 * configuration.threads, connectionLimit / 16))
        let listening = try ListeningSocket.open(host: configuration.host, port: configuration.port)
        port = listening.port
        let context = Unmanaged.passUnretained(self).toOpaque()
        guard
            let started = livepair_mhd_start_on_socket(
                listening.descriptor, UInt32(configuration.threads),
                UInt32(configuration.connectionTimeout), UInt32(connectionLimit), UInt32(configuration.connectionsPerAddress),
                configuration.connectionMemoryLimit, DaemonCallbacks.access, context, DaemonCallbacks.completed, context,
                DaemonCallbacks.connection, context, DaemonCallbacks.target, context)
        else {
            close(listening.descriptor)
            throw .internal("cannot start the HTTP daemon on \(ListeningSocket.display(configuration.host, port))")
        }
        daemon = started
    }

    /// Whether `stop` has begun (long-running work should end early).
    public var isStopping: Bool { stopping.load(ordering: .acquiring) }

    /// Stops accepting connections, lets the work in flight finish (an ingestion is never cut in
    /// the middle), waits up to `gracePeriod` seconds for the requests in flight to end, then
    /// closes every connection (uploads still arriving are aborted: their spool files removed).
    public func stop(gracePeriod: Double = 10) {
        guard let daemon, !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let listener = MHD_quiesce_daemon(daemon)
        if listener >= 0 { close(listener) }
        let deadline = Date().addingTimeInterval(gracePeriod)
        while true {
            let (exchanges, work) = activity.withLock { ($0.exchanges, $0.work) }
            if work == 0 && (exchanges == 0 || Date() > deadline) { break }
            usleep(10_000)
        }
        MHD_stop_daemon(daemon)
        self.daemon = nil
    }

    deinit { stop(gracePeriod: 0) }

    // MARK: - Callbacks (on the daemon's worker threads)

    /// The access handler's body; returns false to close the connection.
    func access(
        connection: OpaquePointer, method: String, version: UnsafePointer<CChar>, uploadData: UnsafePointer<CChar>?,
        uploadDataSize: UnsafeMutablePointer<Int>, slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> Bool {
        guard let pointer = slot.pointee else {
            connections.requestStarted(connection)
            let exchange = begin(connection: connection, method: method, version: version)
            slot.pointee = Unmanaged.passRetained(exchange).toOpaque()
            activity.withLock { $0.exchanges += 1 }
            if case let .respond(response) = exchange.plan, exchange.answersAtOnce || !exchange.drainsBodyFirst {
                return queue(response, on: connection, for: exchange)
            }
            return true
        }
        let exchange = Unmanaged<Exchange>.fromOpaque(pointer).takeUnretainedValue()
        if uploadDataSize.pointee > 0 {
            guard exchange.elapsedSeconds <= requestTimeout else {
                exchange.spool?.discard()
                return false  // a client trickling its body: close the connection
            }
            exchange.bytesReceived += Int64(uploadDataSize.pointee)
            if exchange.queued == nil, case let .respond(response) = exchange.plan, exchange.bytesReceived > exchange.drainLimit {
                uploadDataSize.pointee = 0
                return queue(response, on: connection, for: exchange)  // drained enough: answer, then close
            }
            if exchange.queued == nil, let spool = exchange.spool {
                spool.append(UnsafeRawBufferPointer(start: uploadData, count: uploadDataSize.pointee))
            }
            uploadDataSize.pointee = 0
            return true
        }
        if exchange.queued != nil { return true }
        if let response = exchange.ready.withLock({ $0.take() }) { return queue(response, on: connection, for: exchange) }
        if exchange.handedOver { return true }
        exchange.handedOver = true
        if case let .respond(response) = exchange.plan { return queue(response, on: connection, for: exchange) }  // body drained
        guard case let .receive(_, offThread, respond) = exchange.plan else { return true }
        let body = exchange.spool?.finish() ?? .none
        guard offThread else { return queue(respond(body), on: connection, for: exchange) }
        let suspended = ConnectionPointer(pointer: connection)
        MHD_suspend_connection(connection)
        activity.withLock { $0.work += 1 }
        workQueue.async { [self] in
            let response = respond(body)
            exchange.ready.withLock { $0 = response }
            MHD_resume_connection(suspended.pointer)
            activity.withLock { $0.work -= 1 }
        }
        return true
    }

    /// The most body bytes read and dropped before an early answer (401, 404, 413...) is sent.
    static let drainLimit: Int64 = 16 << 20

    /// A new exchange: the request copied out of the connection, checked strictly, and the
    /// handler's plan (a request that fails the checks is answered at once and its connection
    /// closed; a GET, HEAD or DELETE with a body gets 400 after reading at most 1 MiB of it).
    private func begin(connection: OpaquePointer, method: String, version: UnsafePointer<CChar>) -> Exchange {
        let headers = HeaderCollector()
        let context = Unmanaged.passUnretained(headers).toOpaque()
        _ = livepair_mhd_values(connection, 0, DaemonCallbacks.collect, context)
        let sent = targets.take(for: connection)
        var request = HTTPRequest(method: method, path: "/", headers: withExtendedLifetime(headers) { headers.values })
        do throws(HTTPError) {
            guard let sent, UInt(bitPattern: Int(bitPattern: version)) == sent.address + UInt(sent.bytes.count) + 1,
                livepair_mhd_header_lines_intact(connection, version) != 0
            else { throw .badRequest("the request line or a header holds a NUL byte") }
            let target = try RequestTarget(sent.bytes)
            request = HTTPRequest(method: method, path: target.path, query: target.query, headers: headers.values)
            try RequestHead.check(request, conflicting: headers.conflicting)
        } catch {
            let exchange = Exchange(request: request, plan: .respond(Self.refusal(error)))
            if ["GET", "HEAD", "DELETE"].contains(method), error.status == 400, request.header("transfer-encoding") == nil,
                !headers.conflicting.contains("content-length")
            {
                // A declared body of at most 1 MiB is read and dropped, then answered (libmicrohttpd
                // can answer only before the body or after all of it); a longer one is answered at once.
                exchange.drainLimit = RequestHead.unwantedBodyLimit
            } else {
                exchange.answersAtOnce = true
            }
            return exchange
        }
        var plan = isStopping ? .respond(HTTPResponse(error: .unavailable)) : handler.plan(request)
        let exchange = Exchange(request: request, plan: plan)
        if case let .receive(limit?, _, _) = plan {
            if let length = request.contentLength, length > limit {
                plan = .respond(HTTPResponse(error: .tooLarge(limit)))
            } else {
                do throws(HTTPError) {
                    exchange.spool = try UploadSpool(path: handler.spoolPath(), limit: limit)
                } catch {
                    plan = .respond(HTTPResponse(error: error))
                }
            }
            exchange.plan = plan
        }
        return exchange
    }

    /// The answer to a request refused before routing (closes the connection once sent).
    private static func refusal(_ error: HTTPError) -> HTTPResponse {
        var response = HTTPResponse(error: error)
        response.headers.append(("Connection", "close"))
        response.annotations["route"] = "refused"
        return response
    }

    /// Queues `response` on the connection; false when libmicrohttpd refused it.
    private func queue(_ response: HTTPResponse, on connection: OpaquePointer, for exchange: Exchange) -> Bool {
        var response = response
        var made: OpaquePointer?
        switch response.body {
        case .empty:
            made = livepair_mhd_response_bytes(nil, 0)
        case let .bytes(bytes):
            made = bytes.withUnsafeBytes { livepair_mhd_response_bytes($0.baseAddress, $0.count) }
        case let .file(path, offset, length):
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            if descriptor >= 0 {
                made = livepair_mhd_response_file(descriptor, UInt64(offset), UInt64(length))
                if made == nil { close(descriptor) }
            } else {
                response = HTTPResponse(error: .notFound("the file is gone"))
                let body: [UInt8]
                if case let .bytes(bytes) = response.body { body = bytes } else { body = [] }
                made = body.withUnsafeBytes { livepair_mhd_response_bytes($0.baseAddress, $0.count) }
            }
        case let .stream(stream):
            stream.attach(to: connection)
            let context = Unmanaged.passRetained(stream).toOpaque()
            made = livepair_mhd_response_stream(context, DaemonCallbacks.streamRead, DaemonCallbacks.streamRelease)
            if made == nil { Unmanaged<ResponseStream>.fromOpaque(context).release() }
        }
        guard let made else { return false }
        for header in response.headers { _ = livepair_mhd_add_header(made, header.name, header.value) }
        _ = livepair_mhd_add_header(made, "X-Request-Id", exchange.requestID)
        let result = MHD_queue_response(connection, UInt32(response.status), made)
        MHD_destroy_response(made)
        exchange.queued = response
        return result == livepair_mhd_yes()
    }

    /// The completion callback's body.
    func completed(_ exchange: Exchange, normally: Bool) {
        if !exchange.handedOver { exchange.spool?.discard() }
        activity.withLock { $0.exchanges -= 1 }
        handler.finished(
            ExchangeRecord(
                request: exchange.request, requestID: exchange.requestID, response: exchange.queued, seconds: exchange.elapsedSeconds,
                completed: normally, bytesReceived: exchange.bytesReceived))
    }
}
