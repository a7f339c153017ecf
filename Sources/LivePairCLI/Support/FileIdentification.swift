import Foundation
import LivePairCore

/// Identifies many files on every core, with a progress indicator, returning results in input order.
package enum FileIdentification {
    /// Identifies `files`; `label` names the work in the progress bar (none when `quiet`). A path of
    /// `links` (a further path to a file listed earlier, see `FileCollector.Collection.links`) is not
    /// read: it gets the identity of that file's first path, under its own path.
    package static func identifyAll(
        _ files: [String], links: [String: String] = [:], label: String, streams: OutputStreams, quiet: Bool = false
    ) -> [ResourceIdentity] {
        let read = links.isEmpty ? files : files.filter { links[$0] == nil }
        let progress = ProgressReporter(streams: streams, label: label, total: read.count, quiet: quiet)
        let results = ResultSlots<ResourceIdentity>(count: read.count)
        let identifier = ResourceIdentifier()
        DispatchQueue.concurrentPerform(iterations: read.count) { index in
            results.store(identifier.identify(path: read[index]), at: index)
            progress.advance()
        }
        progress.finish()
        guard !links.isEmpty else { return results.values }
        var byPath: [String: ResourceIdentity] = [:]
        for identity in results.values { byPath[identity.path] = identity }
        return files.compactMap { path in
            guard let first = links[path] else { return byPath[path] }
            var identity = byPath[first]
            identity?.path = path
            return identity
        }
    }

    /// The exit status of `inspect`, `pair` or `validate` when nothing failed: `noMedia` (said on
    /// standard error, naming `paths`) when none of `identities` is a photo or movie, else `success`.
    package static func successOrNoMedia(_ identities: [ResourceIdentity], paths: [String], streams: OutputStreams) -> ExitCode {
        guard !identities.contains(where: { $0.role != .unknown }) else { return .success }
        let found = identities.count == 1 ? "1 file" : "\(identities.count) files"
        streams.printError("Error: no photos or movies in \(paths.map(TerminalText.path).joined(separator: ", ")) (\(found) found)")
        return .noMedia
    }

    /// Collects the files under `paths`, reporting on standard error the paths that cannot be used
    /// (missing, or not a regular file); returns the files (every path, with the further paths to
    /// one file in `links`) and whether any path had a problem.
    package static func collect(
        _ paths: [String], streams: OutputStreams
    ) -> (files: [String], links: [String: String], anyProblem: Bool) {
        let collection = FileCollector.collect(paths)
        for problem in collection.problems {
            streams.printError("Error: \(TerminalText.path(problem.path)): \(problem.reason)")
        }
        return (collection.files, collection.links, !collection.problems.isEmpty)
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

    /// The value in slot `index`, nil when none was stored.
    package func optionalValue(at index: Int) -> Value? { lock.withLock { slots[index] } }
}
