import Foundation
import Testing
import TestSupport

/// A real `livepair serve` process on a temporary library, listening on a free loopback port,
/// with two owners' tokens (`alice-token`, `bob-token`) and its log lines in a file.
final class ServeProcess: @unchecked Sendable {
    // @unchecked: `process` is replaced only by `restart`, called by the test's one thread.
    let directory: String
    let library: String
    let logPath: String
    let extraArguments: [String]
    /// How the library is named on the command line (`--library DIR`, or `--catalog URL --store DIR`).
    let libraryArguments: [String]
    /// Variables added to the server's environment.
    let environment: [String: String]
    /// The open-file limit (soft and hard) the server starts under, when not inherited.
    let openFileLimit: Int?
    /// The `--listen` host (`127.0.0.1`, `localhost`, `[::1]`), always with port 0.
    let listenHost: String
    private(set) var process: Process
    private(set) var port: UInt16 = 0
    static let tokens = ["alice-token": "alice", "bob-token": "bob", "carol-token": "carol", "dave-token": "dave", "erin-token": "erin"]

    /// Starts a server with `arguments` added to the command line, on its own library or on the
    /// one `libraryArguments` name (several servers on one catalog and store).
    init(
        _ arguments: [String] = [], libraryArguments: [String]? = nil, environment: [String: String] = [:],
        openFileLimit: Int? = nil, listenHost: String = "127.0.0.1"
    ) throws {
        self.listenHost = listenHost
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("livepair-serve-\(UUID().uuidString)").path
        library = directory + "/library"
        logPath = directory + "/serve.log"
        extraArguments = arguments
        self.libraryArguments = libraryArguments ?? ["--library", library]
        self.environment = environment
        self.openFileLimit = openFileLimit
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let tokens = Self.tokens.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: "\n")
        try (tokens + "\n").write(toFile: directory + "/tokens", atomically: true, encoding: .utf8)
        process = Process()
        try start()
    }

    /// The base URL.
    var base: String { "http://\(listenHost):\(port)" }

    private func start() throws {
        let binary = try #require(LivePairBinary.url, "the livepair executable is not built")
        let earlier = logLines().count
        if !FileManager.default.fileExists(atPath: logPath) {
            _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        }
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        log.seekToEndOfFile()
        let started = Process()
        // Background derivative jobs only where a test asks for them: the others count and time
        // the derivatives their own requests make.
        let jobs = extraArguments.contains("--background-jobs") ? [] : ["--background-jobs", "0"]
        let arguments = ["serve"] + libraryArguments + ["--tokens", directory + "/tokens", "--listen", listenHost + ":0"] + jobs + extraArguments
        if let openFileLimit {
            started.executableURL = URL(fileURLWithPath: "/bin/sh")
            started.arguments = ["-c", "ulimit -n \(openFileLimit) && exec \"$0\" \"$@\"", binary.path] + arguments
        } else {
            started.executableURL = binary
            started.arguments = arguments
        }
        started.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        started.standardOutput = log
        started.standardError = log
        try started.run()
        process = started
        let deadline = Date().addingTimeInterval(120)  // a guard against a hang, not a bound on speed
        while Date() < deadline {
            if let line = logLines().dropFirst(earlier).last(where: { $0["message"] as? String == "listening" }), let port = line["port"] as? Int,
                started.isRunning
            {
                self.port = UInt16(port)
                return
            }
            guard started.isRunning else { break }
            usleep(20_000)
        }
        Issue.record("livepair serve did not start: \(String(decoding: FileManager.default.contents(atPath: logPath) ?? Data(), as: UTF8.self))")
        throw ServeError.notStarted
    }

    /// Every JSON log line written so far.
    func logLines() -> [[String: Any]] {
        let text = String(decoding: FileManager.default.contents(atPath: logPath) ?? Data(), as: UTF8.self)
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// The first log line that `matches`, waiting up to 300 s for it (a guard against a hang; a
    /// request's line is written once its response has been sent, so just after the client has it).
    func logLine(where matches: ([String: Any]) -> Bool) -> [String: Any]? {
        let deadline = Date().addingTimeInterval(300)
        repeat {
            if let line = logLines().first(where: matches) { return line }
            usleep(10_000)
        } while Date() < deadline
        return nil
    }

    /// The whole log as text.
    var logText: String { String(decoding: FileManager.default.contents(atPath: logPath) ?? Data(), as: UTF8.self) }

    /// The whole log as text once it contains `text`, waiting up to 300 s for it (a guard against a
    /// hang, as `logLine(where:)`): what the server writes after its `listening` line (`start`
    /// returns on that line), or after a signal, may not be written yet on a busy machine.
    func logText(waitingFor text: String) -> String {
        let deadline = Date().addingTimeInterval(300)
        var log = logText
        while !log.contains(text) && Date() < deadline {
            usleep(10_000)
            log = logText
        }
        return log
    }

    /// Sends `signal` to the server.
    func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Kills the server with SIGKILL and starts a new one on the same library (a new port).
    func killAndRestart() throws {
        send(SIGKILL)
        process.waitUntilExit()
        try start()
    }

    /// Stops the server with SIGTERM and waits; returns its exit status.
    @discardableResult
    func stop() -> Int32 {
        if process.isRunning {
            send(SIGTERM)
            process.waitUntilExit()
        }
        return process.terminationStatus
    }

    /// The upload spool's files (uploads in flight or left by a crash), in every process's folder
    /// of the spool (each holds its `.lock`, which is not an upload).
    func spoolFiles() -> [String] {
        let spool = library + "/.serve/uploads"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: spool)) ?? []
        return entries.flatMap { entry -> [String] in
            let inner = (try? FileManager.default.contentsOfDirectory(atPath: spool + "/" + entry)) ?? [entry]
            return inner.filter { $0 != ".lock" }.map { entry + "/" + $0 }
        }
    }

    deinit {
        if process.isRunning {
            send(SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    enum ServeError: Error { case notStarted }
}
