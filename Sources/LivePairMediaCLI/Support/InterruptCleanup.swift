import Foundation
import LivePair
import Synchronization

/// The write end of the pipe the signal handler writes to (set once, before the handler is installed).
private nonisolated(unsafe) var interruptPipe: Int32 = -1
/// The signal received, set by the handler before it writes to the pipe (0: none yet).
private let receivedSignal = Atomic<Int32>(0)

/// What an interrupted command (SIGINT, SIGTERM) removes before it exits: the staging folders of
/// this process (`ActiveStaging`, every packaging run's unfinished outputs and scratch files) and
/// what the command registered (preview's written files). The process then exits with status
/// 128 + the signal number (130 for SIGINT, 143 for SIGTERM), as a shell reports a process killed
/// by that signal. A staging folder holding a commit journal is left: its renames are completed by
/// the next run (`StagingRecovery`).
///
/// `make`, `restamp`, `convert`, `preview` and `library` install it; `serve` has its own handling
/// (a graceful stop).
final class InterruptCleanup: Sendable {
    /// The process-wide handler.
    static let shared = InterruptCleanup()

    private let state = Mutex<(installed: Bool, cleanups: [Int: @Sendable () -> Void], next: Int)>((false, [:], 0))
    /// Starts handling SIGINT and SIGTERM (once per process). The signal handler only writes the
    /// signal's number to a pipe (what a handler may safely do, on whichever thread the signal
    /// lands); a dedicated thread reads it, cleans up and exits.
    func install() {
        let first = state.withLock { state in
            defer { state.installed = true }
            return !state.installed
        }
        guard first else { return }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        interruptPipe = ends[1]
        let reader = ends[0]
        Thread.detachNewThread { [self] in
            var number: UInt8 = 0
            while read(reader, &number, 1) != 1 {}
            interrupted(by: Int32(number))
        }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { number in
            receivedSignal.store(number, ordering: .sequentiallyConsistent)
            var byte = UInt8(truncatingIfNeeded: number)
            _ = write(interruptPipe, &byte, 1)
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(SIGINT, &action, nil)
        sigaction(SIGTERM, &action, nil)
        // A parent may start us with the signals blocked (Foundation's Process does): unblock them
        // here; the threads this one starts from now on inherit the mask.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }

    /// Registers `cleanup` to run on interruption until the returned token is passed to `remove`.
    func add(_ cleanup: @escaping @Sendable () -> Void) -> Int {
        state.withLock { state in
            defer { state.next += 1 }
            state.cleanups[state.next] = cleanup
            return state.next
        }
    }

    /// Unregisters the cleanup `token`.
    func remove(_ token: Int) { _ = state.withLock { $0.cleanups.removeValue(forKey: token) } }

    /// Called by the process's main path before it exits: when a signal has arrived, the cleanup
    /// thread decides the exit status (128 + the signal), so this waits for it to end the process.
    /// Without this, a command that failed *because* the cleanup removed its staging folder would
    /// exit 1 first, racing the cleanup (seen in CI: `library export` interrupted mid-write).
    func waitIfInterrupted() {
        guard receivedSignal.load(ordering: .sequentiallyConsistent) != 0 else { return }
        while true { pause() }
    }

    private func interrupted(by signalNumber: Int32) {
        let cleanups = state.withLock { Array($0.cleanups.values) }
        // Twice: a file the working thread created while the first pass ran goes in the second.
        for _ in 0..<2 {
            ActiveStaging.shared.removeAll()
            for cleanup in cleanups { cleanup() }
        }
        _exit(128 + signalNumber)
    }
}
