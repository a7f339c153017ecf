import Dispatch
import LivePairMedia
import Synchronization

/// Starts, coalesces and cancels shared load tasks (Nuke's task model).
///
/// Requests with the same `LoadKey` that overlap in time subscribe to one task: the work runs
/// once and every subscriber gets its events. Cancelling a request removes only its
/// subscription (it gets its cancelled call at once); the task's cancellation flag is set when
/// its last subscriber leaves, which stops the decoders at their next check. All bookkeeping is
/// behind one mutex; handlers are called outside it, on each request's own serial queue.
final class RequestCoordinator<Value: Sendable>: Sendable {
    /// One running task.
    private struct TaskState {
        let key: LoadKey
        let cancellation: CancellationFlag
        var subscribers: [Subscription<Value>]
        var validated = false
        var preview: (image: PixelBuffer, source: PreviewSource)?
    }

    private struct State {
        var nextTaskNumber = 0
        var taskByKey: [LoadKey: Int] = [:]
        var tasks: [Int: TaskState] = [:]
        var taskByRequest: [RequestID: Int] = [:]
        var startedTasks = 0
    }

    private let state = Mutex(State())
    /// Where the tasks' work runs.
    private let queue: DispatchQueue

    /// A coordinator running work on `queue`.
    init(queue: DispatchQueue) { self.queue = queue }

    /// How many tasks this coordinator has started (tests use it to prove coalescing).
    var startedTaskCount: Int { state.withLock { $0.startedTasks } }

    /// How many tasks are running now.
    var runningTaskCount: Int { state.withLock { $0.tasks.count } }

    /// Subscribes `subscription` to the running task for `key`, or starts `work` in a new task.
    func submit(
        key: LoadKey, subscription: Subscription<Value>,
        work: @escaping @Sendable (LoadContext) throws(LoaderError) -> Value
    ) {
        let started: (number: Int, cancellation: CancellationFlag)? = state.withLock { state in
            if let number = state.taskByKey[key], var task = state.tasks[number] {
                task.subscribers.append(subscription)
                state.tasks[number] = task
                state.taskByRequest[subscription.id] = number
                // A late subscriber catches up with what the others already had.
                if task.validated, let placeholder = subscription.placeholder { subscription.deliver(.preview(placeholder, source: nil)) }
                if let preview = task.preview, subscription.wantsPreview { subscription.deliver(.preview(preview.image, source: preview.source)) }
                return nil
            }
            state.nextTaskNumber += 1
            state.startedTasks += 1
            let number = state.nextTaskNumber
            let cancellation = CancellationFlag()
            state.tasks[number] = TaskState(key: key, cancellation: cancellation, subscribers: [subscription])
            state.taskByKey[key] = number
            state.taskByRequest[subscription.id] = number
            return (number, cancellation)
        }
        guard let started else { return }
        let context = LoadContext(
            cancellation: started.cancellation,
            onValidated: { [self] in validated(started.number) },
            onPreview: { [self] image, source in preview(image, source: source, task: started.number) },
            onProgress: { [self] fraction in progress(fraction, task: started.number) },
            previewWanted: { [self] in wantsPreview(started.number) })
        queue.async { [self] in
            let event: LoadEvent<Value>
            do throws(LoaderError) {
                try context.checkCancellation()
                event = .final(try work(context))
            } catch {
                event = .failure(error)
            }
            finish(started.number, with: event)
        }
    }

    /// Ends request `id` with a cancelled call, unless it already ended. Idempotent, any thread.
    func cancel(_ id: RequestID) {
        let subscription: Subscription<Value>? = state.withLock { state in
            guard let number = state.taskByRequest.removeValue(forKey: id), var task = state.tasks[number] else {
                return nil
            }
            guard let index = task.subscribers.firstIndex(where: { $0.id == id }) else { return nil }
            let removed = task.subscribers.remove(at: index)
            if task.subscribers.isEmpty {
                task.cancellation.cancel()
                state.tasks[number] = nil
                if state.taskByKey[task.key] == number { state.taskByKey[task.key] = nil }
            } else {
                state.tasks[number] = task
            }
            return removed
        }
        subscription?.deliver(.failure(.cancelled))
    }

    /// True when `id` has not had its terminal call yet.
    func isActive(_ id: RequestID) -> Bool { state.withLock { $0.taskByRequest[id] != nil } }

    private func finish(_ number: Int, with event: LoadEvent<Value>) {
        let subscribers: [Subscription<Value>] = state.withLock { state in
            guard let task = state.tasks.removeValue(forKey: number) else { return [] }
            if state.taskByKey[task.key] == number { state.taskByKey[task.key] = nil }
            for subscriber in task.subscribers { state.taskByRequest[subscriber.id] = nil }
            return task.subscribers
        }
        for subscriber in subscribers { subscriber.deliver(event) }
    }

    private func validated(_ number: Int) {
        let subscribers: [Subscription<Value>] = state.withLock { state in
            state.tasks[number]?.validated = true
            return state.tasks[number]?.subscribers.filter { $0.placeholder != nil } ?? []
        }
        for subscriber in subscribers {
            if let placeholder = subscriber.placeholder { subscriber.deliver(.preview(placeholder, source: nil)) }
        }
    }

    private func preview(_ image: PixelBuffer, source: PreviewSource, task number: Int) {
        let subscribers: [Subscription<Value>] = state.withLock { state in
            state.tasks[number]?.preview = (image, source)
            return state.tasks[number]?.subscribers.filter(\.wantsPreview) ?? []
        }
        for subscriber in subscribers { subscriber.deliver(.preview(image, source: source)) }
    }

    private func progress(_ fraction: Double, task number: Int) {
        let subscribers = state.withLock { $0.tasks[number]?.subscribers ?? [] }
        for subscriber in subscribers { subscriber.progress(fraction) }
    }

    private func wantsPreview(_ number: Int) -> Bool {
        state.withLock { $0.tasks[number]?.subscribers.contains(where: \.wantsPreview) ?? false }
    }
}
