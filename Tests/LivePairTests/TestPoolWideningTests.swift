import Foundation
import Testing

/// `scripts/test.sh` runs each test process's jobs on `LIVEPAIR_TEST_POOL_THREADS` threads
/// (Tests/TestPoolWidening) instead of Swift's one thread per core. Three tasks that each block
/// until all three have arrived can only finish when at least three threads run jobs at once: on
/// the runtime's own pool of two (this machine) they would wait until their deadline and fail.
@Suite struct TestPoolWideningTests {
    static let threads = ProcessInfo.processInfo.environment["LIVEPAIR_TEST_POOL_THREADS"].flatMap(Int.init)

    @Test(.enabled(if: (threads ?? 0) >= 3, "only when scripts/test.sh widens the pool"))
    func threeBlockingTasksRunAtOnce() async {
        let barrier = Barrier(parties: 3)
        let arrived = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<3 { group.addTask { barrier.arriveAndWait(seconds: 120) } }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(arrived == [true, true, true], "blocking tasks did not run at once: the pool is not widened")
    }
}

/// Blocks each caller until `parties` callers have arrived, or until its deadline.
private final class Barrier: @unchecked Sendable {
    private let condition = NSCondition()
    private let parties: Int
    private var arrivals = 0

    init(parties: Int) { self.parties = parties }

    /// Arrives and waits for the others; false when they did not all arrive within `seconds`.
    func arriveAndWait(seconds: Double) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        arrivals += 1
        condition.broadcast()
        let deadline = Date(timeIntervalSinceNow: seconds)
        while arrivals < parties {
            if !condition.wait(until: deadline) { return arrivals >= parties }
        }
        return true
    }
}
