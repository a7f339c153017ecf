import Foundation
import Synchronization

/// A client of one ingest node: a `livepair import --files-from - --json-lines` process (see
/// docs/deployment.md) whose standard input takes paths and whose standard output gives one
/// outcome per line, read on a thread of its own as they come. Used by the multi-node tests and
/// `livepair-bench ingest --nodes`; a Swift backend can feed its nodes the same way.
public final class IngestNodeProcess: Sendable {
    /// One line the node printed.
    public struct Outcome: Sendable {
        /// The path it was sent.
        public let path: String
        /// `accepted`, `pending`, `duplicate`, `rejected`, `skipped` or `error`; `unreadable` for a
        /// line that is not such an object (kept whole in `error`).
        public let outcome: String
        /// The asset's local identifier, for accepted and duplicate uploads.
        public let asset: String?
        /// The error, for `error`.
        public let error: String?
        /// Seconds from the write of the path to the read of this line (nil when the path was sent
        /// more than once and an earlier line already answered it).
        public let latency: Double?
    }

    private struct State {
        var sent: [String] = []
        var sentAt: [String: [Date]] = [:]
        var outcomes: [Outcome] = []
        var inputOpen = true
    }

    /// A name for messages (`node 2`).
    public let name: String
    private let process: Process
    private let input: FileHandle
    private let state = Mutex(State())

    /// Starts `executable` with `arguments` (which must include `--files-from - --json-lines`) and
    /// `environment` added to this process's. SIGPIPE is ignored from then on in this process, so
    /// that a write to a killed node fails instead of ending the caller.
    public init(name: String, executable: URL, arguments: [String], environment: [String: String] = [:]) throws {
        self.name = name
        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let stdinPipe = Pipe(), stdoutPipe = Pipe()
        // The ends this process keeps must not leak into programs it starts later (another node,
        // a server restarted by a script: a PostgreSQL daemon holding a node's input open would
        // keep that node from ever seeing the end of its input).
        for descriptor in [stdinPipe.fileHandleForWriting.fileDescriptor, stdoutPipe.fileHandleForReading.fileDescriptor] {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        process.standardInput = stdinPipe
        process.standardOutput = stdoutPipe
        process.standardError = FileHandle.standardError
        try process.run()
        self.process = process
        input = stdinPipe.fileHandleForWriting
        let output = stdoutPipe.fileHandleForReading
        let reader = Thread { [self] in
            var pending = Data()
            while true {
                let chunk = output.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    receive(pending[pending.startIndex..<newline])
                    pending = Data(pending[pending.index(after: newline)...])
                }
            }
        }
        reader.start()
    }

    private func receive(_ line: Data) {
        let now = Date()
        guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
            let path = object["path"] as? String, let outcome = object["outcome"] as? String
        else {
            // Counted all the same (so `outstanding` stays right), and kept for the message.
            let text = String(decoding: line, as: UTF8.self)
            state.withLock { $0.outcomes.append(Outcome(path: "", outcome: "unreadable", asset: nil, error: text, latency: nil)) }
            return
        }
        state.withLock { state in
            var latency: Double?
            if var times = state.sentAt[path], !times.isEmpty {
                latency = now.timeIntervalSince(times.removeFirst())
                state.sentAt[path] = times.isEmpty ? nil : times
            }
            state.outcomes.append(
                Outcome(
                    path: path, outcome: outcome, asset: object["asset"] as? String, error: object["error"] as? String,
                    latency: latency))
        }
    }

    /// The process identifier.
    public var pid: Int32 { process.processIdentifier }
    /// True while the process runs and takes input.
    public var isRunning: Bool { process.isRunning && state.withLock { $0.inputOpen } }

    /// Paths sent that have no outcome yet.
    public var outstanding: Int { state.withLock { $0.sent.count - $0.outcomes.count } }

    /// Sends one path, first waiting (at most `patience` seconds) while `limit` uploads are in
    /// hand (ignored once the input is closed or the node is gone).
    public func send(_ path: String, waitingBelow limit: Int = .max, patience: Double = 120) {
        let deadline = Date().addingTimeInterval(patience)
        while isRunning && outstanding >= limit && Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
        state.withLock { state in
            guard state.inputOpen else { return }
            state.sent.append(path)
            state.sentAt[path, default: []].append(Date())
            do { try input.write(contentsOf: Data((path + "\n").utf8)) } catch { state.inputOpen = false }
        }
    }

    /// Everything sent so far and every outcome received so far.
    public var snapshot: (sent: [String], outcomes: [Outcome]) { state.withLock { ($0.sent, $0.outcomes) } }

    /// Waits until every path sent has its outcome or the process ended, up to `timeout` seconds;
    /// true when every path has one.
    @discardableResult
    public func waitForOutcomes(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if outstanding <= 0 { return true }
            if !process.isRunning {
                Thread.sleep(forTimeInterval: 0.2)  // the last lines may still be in the pipe
                return outstanding <= 0
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return false
    }

    /// Ends the process at once (SIGKILL), as a machine failure would; its outstanding uploads
    /// have no outcome.
    public func kill() {
        state.withLock { $0.inputOpen = false }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Closes the input (the node finishes what it has and exits), waits for its last lines, and
    /// returns its exit status.
    public func finish() -> Int32 {
        state.withLock { state in
            if state.inputOpen { try? input.close() }
            state.inputOpen = false
        }
        process.waitUntilExit()
        let deadline = Date().addingTimeInterval(5)
        while outstanding > 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        return process.terminationStatus
    }
}
