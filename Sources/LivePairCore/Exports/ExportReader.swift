import Dispatch
import Synchronization
public import LivePairFormats

/// Reads the files of an export, from folders (files given by path) and from archive parts read
/// in place, into `ExportEntry` values: media identified (the same `ResourceIdentifier` as
/// everywhere), `.json` files' bytes kept for the layout, the rest reported with a reason.
/// Archive parts merge into one tree: a member's path is its name in the archive, so one asset's
/// files in different parts meet in one folder.
public struct ExportReader: Sendable {
    /// Why an input could not be read to its end.
    public struct Failure: Sendable, Equatable {
        /// The input (a file or an archive part).
        public var path: String
        /// What went wrong.
        public var message: String
    }

    /// How files are identified.
    public var identifier: ResourceIdentifier
    /// How archive parts are read; nil: archives are reported as failures.
    public var archives: (any ExportArchiveStreaming)?
    /// When set, archive members are also written to files under this folder as they stream by
    /// (one subfolder per part), so that an import can store them (`ExportEntry.file`).
    public var spoolDirectory: String?

    /// A reader.
    public init(
        identifier: ResourceIdentifier = ResourceIdentifier(), archives: (any ExportArchiveStreaming)?,
        spoolDirectory: String? = nil
    ) {
        self.identifier = identifier
        self.archives = archives
        self.spoolDirectory = spoolDirectory
    }

    /// The entries of `files` (plain files, by path) and `archives` (parts), sorted by path, and the
    /// inputs that failed. Files and parts are read in parallel; each part streams once. `each`,
    /// when given, is called with every entry as soon as it is read (from the reading threads), so
    /// that work on it can start before the last part is read. A path read a second time (two
    /// parts holding one path) is the second entry's `location`, skipped as
    /// `same-path-in-another-part`: the entry read first is the one taken.
    public func read(
        files: [String], archives parts: [String], each: (@Sendable (ExportEntry) -> Void)? = nil
    ) -> (entries: [ExportEntry], failures: [Failure]) {
        let slots = Slots(count: files.count + parts.count)
        let seen = SeenPaths()
        let deliver: @Sendable (ExportEntry) -> ExportEntry = { found in
            var entry = found
            if !seen.claim(entry.path) {
                entry.path = entry.location
                entry.content = .skipped(reason: "same-path-in-another-part")
            }
            each?(entry)
            return entry
        }
        DispatchQueue.concurrentPerform(iterations: files.count + parts.count) { index in
            if index < files.count {
                slots.store(([deliver(entry(file: files[index]))], nil), at: index)
            } else {
                let spool = spoolDirectory.map { "\($0)/part-\(index - files.count)" }
                slots.store(archiveEntries(parts[index - files.count], spool: spool, deliver: deliver), at: index)
            }
        }
        var entries: [ExportEntry] = []
        var failures: [Failure] = []
        for (found, failure) in slots.values {
            if let failure { failures.append(failure) }
            entries += found
        }
        return (entries.sorted { $0.path < $1.path }, failures)
    }

    private func entry(file path: String) -> ExportEntry {
        guard ExportEntry.isJSONName(path) else {
            var entry = ExportEntry(path: path, location: path, content: .identified(identifier.identify(path: path)))
            entry.file = path
            return entry
        }
        do {
            let source = try FileByteSource(path: path)
            return ExportEntry(path: path, location: path, content: jsonContent(source))
        } catch {
            return ExportEntry(path: path, location: path, content: .skipped(reason: "unreadable-sidecar"))
        }
    }

    private func jsonContent(_ source: any ByteSource) -> ExportEntry.Content {
        guard source.size <= UInt64(TakeoutMetadata.maximumBytes),
            let bytes = try? source.readExactly(at: 0, count: Int(source.size), context: source.name)
        else { return .skipped(reason: "sidecar-too-large") }
        return .json(bytes)
    }

    private func archiveEntries(
        _ part: String, spool: String?, deliver: (ExportEntry) -> ExportEntry
    ) -> ([ExportEntry], Failure?) {
        guard let archives else {
            return ([], Failure(path: part, message: "archive parts are read by livepair-media (libarchive)"))
        }
        var entries: [ExportEntry] = []
        do {
            try archives.forEachMember(in: part, spoolDirectory: spool) { member in
                guard !member.isDirectory else { return }
                let location = part + ":" + member.name
                guard ExportTreePath.isSafe(member.name) else {
                    entries.append(deliver(ExportEntry(path: location, location: location, content: .skipped(reason: "unsafe-name"))))
                    return
                }
                let path = ExportTreePath.normalized(member.name)
                guard member.isRegularFile else {
                    entries.append(deliver(ExportEntry(path: path, location: location, content: .skipped(reason: "not-a-regular-file"))))
                    return
                }
                let content: ExportEntry.Content =
                    ExportEntry.isJSONName(path)
                    ? jsonContent(member.content) : .identified(identifier.identify(source: member.content, path: path))
                var entry = ExportEntry(path: path, location: location, content: content, digest: member.digest)
                entry.file = member.spooledPath
                if case let .identified(identity) = content, let video = identity.motionPhoto,
                    let offset = video.videoOffset, let length = video.videoLength
                {
                    entry.embeddedVideoDigest = archives.digest(of: member.content, offset: offset, count: length)
                }
                entries.append(deliver(entry))
            }
        } catch {
            return (entries, Failure(path: part, message: String(describing: error)))
        }
        return (entries, nil)
    }

    /// The tree paths read so far, by any reading thread.
    private final class SeenPaths: Sendable {
        private let paths = Mutex<Set<String>>([])

        /// Whether `path` is read for the first time.
        func claim(_ path: String) -> Bool { paths.withLock { $0.insert(path).inserted } }
    }

    /// Fixed result slots filled by concurrent workers.
    private final class Slots: Sendable {
        private let slots: Mutex<[([ExportEntry], Failure?)]>

        init(count: Int) { slots = Mutex(Array(repeating: ([], nil), count: count)) }

        func store(_ value: ([ExportEntry], Failure?), at index: Int) { slots.withLock { $0[index] = value } }

        var values: [([ExportEntry], Failure?)] { slots.withLock { $0 } }
    }
}

/// The content source for the duplicate checks of an export: files read from folders open as
/// files; members of archive parts, read once, count as different from every other file.
public struct ExportContentSource: ResourceContentSource {
    private let files: Set<String>

    /// A source that opens only `files`.
    public init(files: Set<String>) { self.files = files }

    /// Opens `path` when it is one of the folder files.
    public func open(path: String) throws -> any ByteSource {
        guard files.contains(path) else { throw FormatError.io(path: path, reason: "an archive member is read once") }
        return try FileByteSource(path: path)
    }
}
