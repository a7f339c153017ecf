import Synchronization

/// Group commit: uploads that arrive while a group is being committed wait together, and the
/// first of them then leads the next group (one flush of the group's files, one catalog
/// transaction for all of them) and delivers each member's result. No thread is dedicated to it:
/// the leader is a caller, and leadership passes to a waiting caller when its group is done.
final class IngestGroupCommitter: Sendable {
    private struct State {
        var waiting: [IngestMember] = []
        var leaderActive = false
    }

    private let state = Mutex(State())
    /// The most members one group takes.
    let maximumGroupSize: Int

    init(maximumGroupSize: Int) { self.maximumGroupSize = max(1, maximumGroupSize) }

    /// Queues `member` and returns its result once a group containing it has been committed.
    /// `commit` decides one group, delivers the result of every member it decided, and returns the
    /// members it deferred to the next group (never the first one, so every group makes progress).
    func submit(
        _ member: IngestMember, commit: ([IngestMember]) -> [IngestMember]
    ) -> Result<IngestOutcome, LibraryError> {
        var leads = state.withLock { state in
            state.waiting.append(member)
            if state.leaderActive { return false }
            state.leaderActive = true
            return true
        }
        while true {
            if leads {
                let group = state.withLock { state in
                    let group = Array(state.waiting.prefix(maximumGroupSize))
                    state.waiting.removeFirst(group.count)
                    return group
                }
                let deferred = commit(group)
                let next = state.withLock { state -> IngestMember? in
                    state.waiting.insert(contentsOf: deferred, at: 0)
                    guard let first = state.waiting.first else {
                        state.leaderActive = false
                        return nil
                    }
                    return first
                }
                if let next, next === member { continue }  // deferred and first in line: lead again
                next?.promote()
            }
            if let result = member.wait() { return result }
            leads = true
        }
    }
}
