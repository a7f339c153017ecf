import Foundation
import Synchronization

/// One ingest node for the multi-node tests: a `livepair import --files-from - --json-lines`
/// process whose standard input takes paths and whose standard output gives one outcome per line,
/// read on a thread of its own as they come.
public final class IngestNodeProcess: Sendable {
    /// One line the node printed.
    public struct Outcome: Sendable {
        /// The path it was sent.
        public let path: String
        /// `accepted`, `pending`, `duplicate`, `rejected`, `skipped` or `error`.
        public let outcome: String
        /// The asset's local identifier, for accepted and duplicate uploads.
        public let asset: String?
        /// The error, for `error`.
        public let error: String?
    }

    /// A name for messages (`node 2`).
    public let name: String
    private let process: Process
    private let input: FileHandle
    private let state = Mutex<(sent: [String], outcomes: [Outcome], inputOpen: Bool)>(([], [], true))

    /// Starts `binary` with `arguments` (which must include `--files-from - --json-lines`) and
    /// `environment` added to this process's.
    public init(name: String, binary: URL, arguments: [String], environment: [String: String] = [:]) throws {
        self.name = name
        signal(SIGPIPE, SIG_IGN)  // a write to a killed node's input must fail, not end the test process
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let stdinPipe = Pipe(), stdoutPipe = Pipe()
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
                    let line = pending[pending.startIndex..<newline]
                    pending = Data(pending[pending.index(after: newline)...])
                    guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
                        let path = object["path"] as? String, let outcome = object["outcome"] as? String
                    else { continue }
                    let parsed = Outcome(
                        path: path, outcome: outcome, asset: object["asset"] as? String, error: object["error"] as? String)
                    self.state.withLock { $0.outcomes.append(parsed) }
                }
            }
        }
        reader.start()
    }

    /// The process identifier.
    public var pid: Int32 { process.processIdentifier }
    /// True while the process runs.
    public var isRunning: Bool { process.isRunning }

    /// Sends one path (ignored once the input is closed or the node is gone).
    public func send(_ path: String) {
        state.withLock { state in
            guard state.inputOpen else { return }
            state.sent.append(path)
            // A write to a killed node's pipe fails (EPIPE, SIGPIPE ignored by the test runner).
            do { try input.write(contentsOf: Data((path + "\n").utf8)) } catch { state.inputOpen = false }
        }
    }

    /// Paths sent that have no outcome yet.
    public var outstanding: Int { state.withLock { $0.sent.count - $0.outcomes.count } }

    /// Everything sent so far and every outcome received so far.
    public var snapshot: (sent: [String], outcomes: [Outcome]) { state.withLock { ($0.sent, $0.outcomes) } }

    /// Waits until every path sent has its outcome or the process ended, up to `timeout` seconds;
    /// true when every path has one.
    @discardableResult
    public func waitForOutcomes(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let (sent, outcomes) = snapshot
            if outcomes.count >= sent.count { return true }
            if !process.isRunning {
                Thread.sleep(forTimeInterval: 0.2)  // the last lines may still be in the pipe
                let (sent, outcomes) = snapshot
                return outcomes.count >= sent.count
            }
            Thread.sleep(forTimeInterval: 0.02)
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

    /// Closes the input (the node finishes what it has and exits) and returns the exit status.
    public func finish() -> Int32 {
        state.withLock { state in
            if state.inputOpen { try? input.close() }
            state.inputOpen = false
        }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
