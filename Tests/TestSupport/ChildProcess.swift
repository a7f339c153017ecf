import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs a program to its end (`run`, or `start` then `waitForExit` for children that run side by
/// side), the one way the tests start a child that they wait for: spawned
/// with `posix_spawn` and reaped with `waitpid`, standard input from a file (`/dev/null` unless
/// given), standard output and error into temporary files, and no other descriptor inherited
/// (`SpawnedDescriptors`): a long-lived server started by one test holds no other test's pipe.
///
/// Not Foundation's `Process`: its `waitUntilExit` was seen never to notice a script's exit when
/// called from a one-time static initializer, its pipe reading traps on EINTR when several tests
/// run children at once, and its pipes are inherited by every child spawned meanwhile. Signals
/// the test process blocks or ignores are reset for the child, as `Process` does.
public enum ChildProcess {
    /// Where the child's standard error goes.
    public enum ErrorOutput: Sendable {
        /// Its own file, returned as `error`.
        case separate
        /// The same file as standard output (`2>&1`), returned in `output`.
        case mergedIntoOutput
        /// `/dev/null`.
        case discarded
    }

    /// What a finished child gave.
    public struct Result: Sendable {
        /// The exit status, or 128 + the signal's number for a child killed by a signal.
        public let status: Int32
        /// Its standard output (empty when discarded).
        public let output: Data
        /// Its standard error (empty unless `.separate`).
        public let error: Data

        /// `output` as UTF-8 text.
        public var outputText: String { String(decoding: output, as: UTF8.self) }
        /// `error` as UTF-8 text.
        public var errorText: String { String(decoding: error, as: UTF8.self) }
    }

    /// The child could not be started (no such executable, no permission, no temporary file).
    public struct SpawnFailure: Error, CustomStringConvertible {
        /// The executable's path.
        public let executable: String
        /// Why, as `strerror` says it.
        public let reason: String
        /// "EXECUTABLE: REASON".
        public var description: String { "\(executable): \(reason)" }
    }

    /// Runs `executable` (a path) with `arguments` and waits for it.
    ///
    /// - Parameters:
    ///   - environment: variables added to (or replacing) this process's environment.
    ///   - input: the child's standard input (through a temporary file, so it sees its end);
    ///     nil gives `/dev/null`.
    ///   - keepsOutput: false sends standard output to `/dev/null`.
    ///   - standardError: where standard error goes.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], input: Data? = nil,
        keepsOutput: Bool = true, standardError: ErrorOutput = .separate
    ) throws(SpawnFailure) -> Result {
        try start(
            executable, arguments, environment: environment, input: input, keepsOutput: keepsOutput,
            standardError: standardError
        ).waitForExit()
    }

    /// A child started by `start` and not yet waited for. `waitForExit()` must be called once
    /// (it reaps the child and removes the temporary files of its input and outputs).
    public final class Running: Sendable {
        /// The child's process identifier.
        public let processIdentifier: pid_t
        private let files: (input: String, output: String, error: String)
        private let keepsOutput: Bool
        private let standardError: ErrorOutput

        fileprivate init(
            processIdentifier: pid_t, files: (input: String, output: String, error: String), keepsOutput: Bool,
            standardError: ErrorOutput
        ) {
            self.processIdentifier = processIdentifier
            self.files = files
            self.keepsOutput = keepsOutput
            self.standardError = standardError
        }

        /// Sends `signal` to the child (before it has been waited for).
        public func send(_ signal: Int32) {
            kill(processIdentifier, signal)
        }

        /// Waits for the child to end and returns what it gave.
        public func waitForExit() -> Result {
            defer { for path in [files.input, files.output, files.error] { unlink(path) } }
            var status: Int32 = 0
            while waitpid(processIdentifier, &status, 0) < 0 && errno == EINTR {}
            let read = { (path: String) in (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data() }
            let exitStatus = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
            return Result(
                status: exitStatus, output: keepsOutput ? read(files.output) : Data(),
                error: standardError == .separate ? read(files.error) : Data())
        }
    }

    /// Starts `executable` as `run` does and returns at once; several children can run side by
    /// side, each with its own output files.
    public static func start(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], input: Data? = nil,
        keepsOutput: Bool = true, standardError: ErrorOutput = .separate
    ) throws(SpawnFailure) -> Running {
        let base = NSTemporaryDirectory() + "livepair-child-\(UUID().uuidString)"
        let inputPath = base + ".in", outputPath = base + ".out", errorPath = base + ".err"
        var started = false
        defer { if !started { for path in [inputPath, outputPath, errorPath] { unlink(path) } } }
        if let input {
            guard FileManager.default.createFile(atPath: inputPath, contents: input) else {
                throw SpawnFailure(executable: executable, reason: "cannot write its input to \(inputPath)")
            }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input == nil ? "/dev/null" : inputPath, O_RDONLY, 0)
        if keepsOutput {
            posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        switch standardError {
        case .separate: posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        case .mergedIntoOutput: posix_spawn_file_actions_adddup2(&actions, 1, 2)
        case .discarded: posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        SpawnedDescriptors.closeFromThree(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        SpawnedSignals.reset(&attributes)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0.key)=\($0.value)" }.sorted()
        let envp: [UnsafeMutablePointer<CChar>?] = variables.map { strdup($0) } + [nil]
        defer { for pointer in envp { free(pointer) } }
        var pid: pid_t = 0
        // ETXTBSY: an executable a test has just copied (a `livepair` alone in a folder) is still
        // open for writing in a child that another test's thread spawned while the copy was being
        // written; that descriptor goes at the child's exec, within milliseconds. Tried again for
        // up to a second.
        var spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        var tries = 0
        while spawned == ETXTBSY && tries < 50 {
            tries += 1
            usleep(20_000)
            spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        }
        guard spawned == 0 else { throw SpawnFailure(executable: executable, reason: String(cString: strerror(spawned))) }
        started = true
        return Running(
            processIdentifier: pid, files: (inputPath, outputPath, errorPath), keepsOutput: keepsOutput,
            standardError: standardError)
    }

    /// Runs `executable` with `arguments` and returns its status and its outputs as text; a child
    /// that cannot be started gives status 127 and the reason as its error (a shell's "not found").
    public static func runCapturingText(_ executable: String, _ arguments: [String]) -> (status: Int32, output: String, error: String) {
        do throws(SpawnFailure) {
            let result = try run(executable, arguments)
            return (result.status, result.outputText, result.errorText)
        } catch {
            return (127, "", error.description)
        }
    }
}
