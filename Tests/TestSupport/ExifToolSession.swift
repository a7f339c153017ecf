import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One `exiftool -stay_open True -@ -` per test process, shared by every test that asks exiftool
/// something (`ReferenceTool.execute("exiftool", ...)`): each request is its arguments, one per
/// line, then `-execute<N>`; exiftool answers with the command's standard output then
/// `{ready<N>}`. Perl and ExifTool's modules start once instead of once per question: a start
/// costs about as much CPU as reading a camera file's tags several times over.
///
/// Requests are answered one at a time, in the order they come. exiftool's exit status is not
/// reported in this mode (`ReferenceTool.execute` gives 0); its standard error is discarded, as it
/// is for a one-off run. Requests and answers go through one Unix socket pair (close-on-exec, so
/// no other child inherits it; sent with `MSG_NOSIGNAL`, so an exiftool that died is an error,
/// not a SIGPIPE). exiftool does not end at the end of its input in this mode (it polls for
/// more), so it runs in a process group of its own beside a watcher (`tail --pid`) that ends the
/// group when this process ends: no exiftool outlives its test process, even one that was killed.
final class ExifToolSession: Sendable {
    /// The session every test of this process shares.
    static let shared = ExifToolSession()

    /// The running exiftool: its process (the leader of its group, with the watcher), this end of
    /// the socket pair, and the number of the last request.
    private struct Running {
        var group: pid_t
        var socket: Int32
        var requests = 0
    }

    /// exiftool could not be started, or it ended in the middle of a request.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let state = Mutex<Running?>(nil)

    /// Whether `arguments` can go through the socket unchanged: one per line, so none may
    /// hold a line break, be empty, start with `#` (a comment there) or with or end in white space.
    static func canCarry(_ arguments: [String]) -> Bool {
        arguments.allSatisfy { argument in
            guard let first = argument.first, let last = argument.last else { return false }
            return !argument.contains(where: \.isNewline) && first != "#" && !first.isWhitespace && !last.isWhitespace
        }
    }

    /// exiftool's standard output for `arguments` (which `canCarry` must accept).
    func run(_ arguments: [String]) throws -> Data {
        try state.withLock { running in
            if running == nil { running = try Self.start() }
            guard var session = running else { throw Failure(description: "exiftool did not start") }
            session.requests += 1
            running = session
            let marker = Array("{ready\(session.requests)}\n".utf8)
            let request = Array((arguments + ["-execute\(session.requests)", ""]).joined(separator: "\n").utf8)
            do {
                try Self.send(request, to: session.socket)
                return Data(try Self.read(upTo: marker, from: session.socket))
            } catch {
                // A session that failed mid-request is not trusted again: the next request starts another.
                Self.stop(session)
                running = nil
                throw error
            }
        }
    }

    private static func start() throws -> Running {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw Failure(description: "socketpair: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pair[1], 0)
        posix_spawn_file_actions_adddup2(&actions, pair[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        SpawnedDescriptors.closeFromThree(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setpgroup(&attributes, 0)
        SpawnedSignals.reset(&attributes, extraFlags: Int32(POSIX_SPAWN_SETPGROUP))
        // The watcher runs in the background (whose standard input a shell replaces with
        // /dev/null, hence the copy in descriptor 3) and ends the whole group with this process.
        let script = """
            exec 3<&0; (tail --pid="$1" -f /dev/null; kill 0) </dev/null >/dev/null 2>&1 & \
            exec /usr/bin/exiftool -stay_open True -@ - <&3 3<&-
            """
        let words: [String] = ["/bin/sh", "-c", script, "sh", "\(getpid())"]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let variables = ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }.sorted()
        let envp: [UnsafeMutablePointer<CChar>?] = variables.map { strdup($0) } + [nil]
        defer { for pointer in envp { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, envp)
        close(pair[1])
        guard spawned == 0 else {
            close(pair[0])
            throw Failure(description: "/bin/sh for exiftool: \(String(cString: strerror(spawned)))")
        }
        return Running(group: pid, socket: pair[0])
    }

    private static func stop(_ session: Running) {
        close(session.socket)
        kill(-session.group, SIGKILL)
        var status: Int32 = 0
        while waitpid(session.group, &status, 0) < 0 && errno == EINTR {}
    }

    private static func send(_ bytes: [UInt8], to socket: Int32) throws {
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw Failure(description: "exiftool's socket: \(String(cString: strerror(errno)))") }
            written += count
        }
    }

    /// Reads until the bytes read end with `marker`; returns them without it.
    private static func read(upTo marker: [UInt8], from socket: Int32) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while !(bytes.count >= marker.count && bytes[(bytes.count - marker.count)...].elementsEqual(marker)) {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(socket, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                throw Failure(description: count == 0 ? "exiftool ended before answering" : "exiftool's socket: \(String(cString: strerror(errno)))")
            }
            bytes += chunk[..<count]
        }
        return Array(bytes.dropLast(marker.count))
    }
}
