import Foundation
import LivePairLibrary
import LivePairServer
import Synchronization

/// `livepair-bench serve`'s slowloris figure: 2,000 connections that send a request line and then
/// one header line every 5 s, never ending their headers (a slot the server cut is opened again at
/// its next line), from one address (127.0.0.1) and spread 50 each over 127.0.1.1-40; meanwhile a
/// new client at 127.0.0.2 asks `GET /healthz` on a fresh connection every 100 ms for a minute.
/// Target: every answer within 1 s (p99 and max reported per pattern).
struct SlowlorisBenchmark {
    static let connections = 2000
    static let lineInterval = 5.0
    static let probeInterval = 0.1
    static let maximumLatency = 1.0

    let seconds: Double

    /// Runs both patterns against a fresh server (default settings); true when the target is met.
    func run(root: String) throws -> Bool {
        let library = try PhotoLibrary.open(at: root + "/library-slowloris")
        let server = try LivePairServer(
            library: library, ingestor: Ingestor(library: library), tokens: TokenStore(tokens: ["bench-token": "bench"]),
            derivatives: try DirectoryDerivativeCache(directory: library.directory + "/derivatives"),
            configuration: ServerConfiguration(daemon: DaemonConfiguration(port: 0), spoolDirectory: library.directory + "/.serve/uploads"))
        defer { server.stop() }
        print("slowloris: server connection limit \(server.daemon.connectionLimit), header timeout 10 s, 64 per address")
        let patterns: [(name: String, sources: [String])] = [
            ("2,000 from 127.0.0.1          ", Array(repeating: "127.0.0.1", count: Self.connections)),
            ("2,000 as 50 x 127.0.1.1-40    ", (1...40).flatMap { Array(repeating: "127.0.1.\($0)", count: 50) }),
        ]
        var met = true
        for pattern in patterns {
            let attack = SlowlorisAttack(port: server.port, sources: pattern.sources, lineInterval: Self.lineInterval)
            let thread = Thread { attack.run() }
            thread.start()
            usleep(2_000_000)  // all slots opened once
            let probe = Self.probe(port: server.port, seconds: seconds)
            attack.stop()
            let sorted = probe.latencies.sorted()
            let worst = sorted.last ?? 0
            let patternMet = probe.failures == 0 && worst <= Self.maximumLatency
            met = met && patternMet
            print(String(
                format: "slowloris %@: healthz from 127.0.0.2 x %d over %.0f s: p50 %.2f ms  p99 %.2f ms  max %.2f ms  (%d failed; slow connections open at the end %d, opened %d; target max <= 1 s: %@)",
                pattern.name, sorted.count, seconds, ServeBenchmark.percentile(sorted, 0.5) * 1000,
                ServeBenchmark.percentile(sorted, 0.99) * 1000, worst * 1000, probe.failures, attack.openCount, attack.openedCount,
                patternMet ? "met" : "NOT met"))
            usleep(500_000)
        }
        return met
    }

    /// `GET /healthz` from 127.0.0.2 on a new connection every `probeInterval` for `seconds`: each
    /// latency (connect to the end of the status line) and how many got no 200 within 10 s.
    static func probe(port: UInt16, seconds: Double) -> (latencies: [Double], failures: Int) {
        var latencies: [Double] = []
        var failures = 0
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            let begin = Date()
            let answered = LoopbackSocket.connect(port: port, from: "127.0.0.2", timeout: 10).map { socket in
                defer { close(socket) }
                let request = Array("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8)
                guard request.withUnsafeBytes({ send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else {
                    return false
                }
                var buffer = [UInt8](repeating: 0, count: 64)
                let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
                return count >= 12 && String(decoding: buffer[0..<12], as: UTF8.self) == "HTTP/1.1 200"
            } ?? false
            latencies.append(Date().timeIntervalSince(begin))
            if !answered { failures += 1 }
            let pause = probeInterval - Date().timeIntervalSince(begin)
            if pause > 0 { usleep(UInt32(pause * 1e6)) }
        }
        return (latencies, failures)
    }
}

/// Slow connections to 127.0.0.1:`port`, one per source address given: each sends a request line,
/// then one header line every `lineInterval` seconds, never the blank line; a slot whose
/// connection the server closed is opened again at its next line.
final class SlowlorisAttack: @unchecked Sendable {
    // @unchecked: `sockets` and `nextLine` are only touched by the thread in `run`; the rest is atomic.
    private let port: UInt16
    private let sources: [String]
    private let lineInterval: Double
    private let stopping = Atomic<Bool>(false)
    private let open = Atomic<Int>(0)
    private let opened = Atomic<Int>(0)
    private var sockets: [Int32]
    private var nextLine: [Date]

    init(port: UInt16, sources: [String], lineInterval: Double) {
        self.port = port
        self.sources = sources
        self.lineInterval = lineInterval
        sockets = Array(repeating: -1, count: sources.count)
        let start = Date()
        nextLine = sources.indices.map { start.addingTimeInterval(lineInterval * Double($0) / Double(sources.count)) }
    }

    /// Connections open now.
    var openCount: Int { open.load(ordering: .relaxed) }
    /// Connections opened in all.
    var openedCount: Int { opened.load(ordering: .relaxed) }

    /// Ends `run` (its connections are closed).
    func stop() { stopping.store(true, ordering: .relaxed) }

    /// Opens every slot, then trickles and reopens until `stop`.
    func run() {
        for index in sources.indices { reopen(index) }
        var polled = [pollfd](repeating: pollfd(), count: sources.count)
        while !stopping.load(ordering: .relaxed) {
            for index in sources.indices { polled[index] = pollfd(fd: sockets[index], events: Int16(POLLIN), revents: 0) }
            _ = poll(&polled, nfds_t(polled.count), 50)
            var buffer = [UInt8](repeating: 0, count: 4096)
            for index in sources.indices where polled[index].revents != 0 && sockets[index] >= 0 {
                let count = buffer.withUnsafeMutableBytes { recv(sockets[index], $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if count <= 0 { drop(index) }  // the server closed it (cut, or over the per-address cap)
            }
            let now = Date()
            for index in sources.indices where nextLine[index] <= now {
                nextLine[index] = now.addingTimeInterval(lineInterval)
                if sockets[index] < 0 {
                    reopen(index)
                } else if !write("X-Slow: 1\r\n", to: sockets[index]) {
                    drop(index)
                }
            }
        }
        for index in sources.indices { drop(index) }
    }

    private func reopen(_ index: Int) {
        guard let socket = LoopbackSocket.connect(port: port, from: sources[index], timeout: 1) else { return }
        guard write("GET /healthz HTTP/1.1\r\nHost: x\r\n", to: socket) else {
            close(socket)
            return
        }
        sockets[index] = socket
        open.add(1, ordering: .relaxed)
        opened.add(1, ordering: .relaxed)
    }

    private func drop(_ index: Int) {
        guard sockets[index] >= 0 else { return }
        close(sockets[index])
        sockets[index] = -1
        open.subtract(1, ordering: .relaxed)
    }

    private func write(_ text: String, to socket: Int32) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) } == bytes.count
    }
}
