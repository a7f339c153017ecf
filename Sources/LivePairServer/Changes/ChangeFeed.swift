import Dispatch
import Foundation
import LivePairLibrary
import Synchronization

/// The library's commits as `GET /v1/changes` needs them: long polls wait on it instead of
/// polling the catalog, and event streams hear of each commit. While anyone waits or streams
/// (only then: an observed library checks for new commits on every fetch) it observes the library, which
/// hears this process's commits at once and other nodes' as soon as the catalog pushes them
/// (PostgreSQL `LISTEN`/`NOTIFY`, with `hearsOtherProcessesAtOnce`); once a second it also asks
/// the catalog (`pollForChanges`), for catalogs that push nothing (another process writing the
/// same SQLite library).
final class ChangeFeed: LibraryChangeObserver {
    private let library: PhotoLibrary
    /// Counts the changes heard; guarded by `condition`.
    private let condition = NSCondition()
    nonisolated(unsafe) private var generation = 0
    /// Long polls waiting; guarded by `condition`.
    nonisolated(unsafe) private var waiters = 0
    private let streams = Mutex<[ObjectIdentifier: ChangeEventStream]>([:])
    private let queue = DispatchQueue(label: "livepair.serve.changes")
    private let stopped = Atomic<Bool>(false)
    /// Long polls and event streams under way; the feed observes the library while there are some.
    private let listeners = Mutex(0)

    /// A feed of `library`'s commits (observing it from now until `stop`).
    init(library: PhotoLibrary) {
        self.library = library
        scheduleTick()
    }

    private func scheduleTick() {
        queue.asyncAfter(deadline: .now() + 1) { [weak self] in
            guard let self, !stopped.load(ordering: .acquiring) else { return }
            tick()
            scheduleTick()
        }
    }

    /// Stops observing and ends every event stream.
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        listeners.withLock { count in
            if count > 0 { library.unregister(self) }
            count = 0
        }
        let ended = streams.withLock { streams in
            defer { streams = [:] }
            return Array(streams.values)
        }
        for stream in ended { stream.finish() }
        condition.lock()
        generation += 1
        condition.broadcast()
        condition.unlock()
    }

    /// A long poll or an event stream begins: the library is observed from now on (before the
    /// caller reads the change log, so no commit falls between the read and the wait).
    func listen() {
        listeners.withLock { count in
            count += 1
            if count == 1, !stopped.load(ordering: .acquiring) { library.register(self) }
        }
    }

    /// A long poll or an event stream ended.
    func stopListening() {
        listeners.withLock { count in
            guard count > 0 else { return }
            count -= 1
            if count == 0 { library.unregister(self) }
        }
    }

    /// The changes heard so far (a long poll waits for it to move).
    var currentGeneration: Int {
        condition.lock()
        defer { condition.unlock() }
        return generation
    }

    /// Waits until a change after `seen` is heard, the feed stops, or `deadline` passes.
    func wait(after seen: Int, until deadline: Date) {
        condition.lock()
        waiters += 1
        defer {
            waiters -= 1
            condition.unlock()
        }
        while generation == seen, !stopped.load(ordering: .acquiring), Date() < deadline {
            _ = condition.wait(until: deadline)
        }
    }

    func photoLibraryDidChange(_ change: LibraryChange) {
        condition.lock()
        generation += 1
        condition.broadcast()
        condition.unlock()
        let listening = streams.withLock { Array($0.values) }
        guard !listening.isEmpty else { return }
        queue.async { for stream in listening { stream.update() } }
    }

    /// Adds an event stream (it is sent what changes from now on, and a keep-alive comment when quiet).
    func add(_ stream: ChangeEventStream) {
        guard !stopped.load(ordering: .acquiring) else {
            stream.finish()
            return
        }
        listen()
        streams.withLock { $0[ObjectIdentifier(stream)] = stream }
        queue.async { stream.update() }
    }

    /// Removes an event stream (its client left).
    func remove(_ stream: ChangeEventStream) {
        if streams.withLock({ $0.removeValue(forKey: ObjectIdentifier(stream)) }) != nil { stopListening() }
    }

    /// Once a second: commits the catalog did not push, and keep-alives.
    private func tick() {
        let listening = streams.withLock { Array($0.values) }
        let waiting = condition.withLock { waiters > 0 }
        if !listening.isEmpty || waiting { _ = try? library.pollForChanges() }
        for stream in listening { stream.keepAlive() }
    }
}
