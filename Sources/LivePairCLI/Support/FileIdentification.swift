import Foundation
import LivePairCore

/// Identifies many files on every core, with a progress indicator, returning results in input order.
package enum FileIdentification {
    /// Identifies `files`; `label` names the work in the progress bar (none when `quiet`).
    package static func identifyAll(
        _ files: [String], label: String, streams: OutputStreams, quiet: Bool = false
    ) -> [ResourceIdentity] {
        let progress = ProgressReporter(streams: streams, label: label, total: files.count, quiet: quiet)
        let results = ResultSlots<ResourceIdentity>(count: files.count)
        let identifier = ResourceIdentifier()
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            results.store(identifier.identify(path: files[index]), at: index)
            progress.advance()
        }
        progress.finish()
        return results.values
    }

    /// Collects the files under `paths`, reporting on standard error the paths that cannot be used
    /// (missing, or not a regular file); returns the files and whether any path had a problem.
    package static func collect(_ paths: [String], streams: OutputStreams) -> (files: [String], anyProblem: Bool) {
        let collection = FileCollector.collect(paths)
        for problem in collection.problems {
            streams.printError("Error: \(TerminalText.path(problem.path)): \(problem.reason)")
        }
        return (collection.files, !collection.problems.isEmpty)
    }
}

/// Fixed slots that concurrent workers fill, each slot written once.
package final class ResultSlots<Value: Sendable>: @unchecked Sendable {
    // Sendable: every access to `slots` holds `lock`.
    private let lock = NSLock()
    private var slots: [Value?]

    /// `count` empty slots.
    package init(count: Int) { slots = Array(repeating: nil, count: count) }

    /// Stores `value` in slot `index`.
    package func store(_ value: Value, at index: Int) { lock.withLock { slots[index] = value } }

    /// The filled values in slot order.
    package var values: [Value] { lock.withLock { slots.compactMap { $0 } } }
}
