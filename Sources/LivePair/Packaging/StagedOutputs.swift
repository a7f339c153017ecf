#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LivePairFormats

/// The outputs of one packaging operation, written into a hidden staging folder next to their
/// destinations (same file system, same file names, so validation sees the names they will have)
/// and renamed into place together only after they validated. Until `commit`, no destination
/// changes; `discard` (also on deinit) removes whatever was staged, so a failure at any point leaves
/// no partial output. A destination that is also an input (`restamp --in-place`) is replaced by
/// rename, so the input stays whole until its replacement is complete.
final class StagedOutputs {
    /// One staged file: where it is now and where it goes.
    private struct Entry {
        let temporary: String
        let destination: String
    }

    private var entries: [Entry] = []
    /// Staging folder per destination folder.
    private var stagingFolders: [String: StagingFolder] = [:]
    private let overwrite: Bool
    private let durable: Bool
    private let interpose: (@Sendable (any ByteSink) -> any ByteSink)?
    private var finished = false
    /// Folders `createDirectory` made, parents first: removed again by `discard` when still empty.
    private var createdDirectories: [String] = []

    /// Staging that refuses existing destinations unless `overwrite`; with `durable`, files and
    /// folders are flushed to disk (`fsync`) before and after they are renamed into place.
    /// `interpose` wraps every file's sink (tests inject failures).
    init(overwrite: Bool, durable: Bool = true, interpose: (@Sendable (any ByteSink) -> any ByteSink)? = nil) {
        self.overwrite = overwrite
        self.durable = durable
        self.interpose = interpose
    }

    /// Staging configured by `options`.
    convenience init(_ options: PackagingOptions, overwrite: Bool? = nil) {
        self.init(overwrite: overwrite ?? options.overwrite, durable: options.durable, interpose: options.interposeSink)
    }

    /// Creates the staged (or scratch) file `path` and fills it with what `body` writes; flushed to
    /// disk when staging is durable and `scratch` is false. A replaced destination's permission bits
    /// are kept. On failure the file is removed.
    func write(
        _ path: String, scratch: Bool = false, _ body: (any ByteSink) throws(FormatError) -> Void
    ) throws(PackagingError) {
        let descriptor = FileSystemPath.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .format(.io(path: path, reason: FileSystemPath.errorText(errno))) }
        if let destination = entries.first(where: { $0.temporary == path })?.destination {
            if let existing = FileSystemPath.status(destination), (existing.st_mode & S_IFMT) == S_IFREG {
                _ = fchmod(descriptor, existing.st_mode & 0o7777)
            }
        }
        do throws(FormatError) {
            let fileSink = FileDescriptorSink(descriptor: descriptor, path: path)
            try body(scratch ? fileSink : interpose?(fileSink) ?? fileSink)
            if durable, !scratch, fsync(descriptor) != 0 {
                throw FormatError.io(path: path, reason: FileSystemPath.errorText(errno))
            }
            guard close(descriptor) == 0 else {
                FileSystemPath.unlink(path)
                throw FormatError.io(path: path, reason: FileSystemPath.errorText(errno))
            }
        } catch {
            close(descriptor)
            FileSystemPath.unlink(path)
            throw .format(error)
        }
    }

    deinit { if !finished { discard() } }

    /// A temporary path for `destination` (a hidden staging folder in the same directory, the same
    /// file name), checking that the destination may be written.
    func stage(_ destination: String) throws(PackagingError) -> String {
        if !overwrite, Self.exists(destination) { throw .outputExists(path: destination) }
        if entries.contains(where: { $0.destination == destination }) {
            throw .invalidArgument("two outputs would be written to \(destination)")
        }
        let directory = Self.directory(of: destination)
        let folder = try stagingFolder(in: directory)
        let name = destination.split(separator: "/").last.map(String.init) ?? "output"
        let temporary = "\(folder)/\(name)"
        entries.append(Entry(temporary: temporary, destination: destination))
        return temporary
    }

    /// A scratch path in the staging folder of `directory` for intermediate files (a transcode);
    /// removed with the staging folder.
    func scratch(in directory: String, name: String) throws(PackagingError) -> String {
        "\(try stagingFolder(in: directory))/\(name)"
    }

    /// The staging folder of `directory`, created (and locked) on first use.
    private func stagingFolder(in directory: String) throws(PackagingError) -> String {
        if let existing = stagingFolders[directory] { return existing.path }
        let folder = try StagingFolder.create(in: directory)
        stagingFolders[directory] = folder
        return folder.path
    }

    /// `text` with staged paths replaced by their destinations (findings name the final paths).
    func destinationText(_ text: String) -> String {
        var result = text
        for entry in entries { result = result.replacing(entry.temporary, with: entry.destination) }
        return result
    }

    /// Renames every staged file into place. Several files are one recoverable step: a
    /// `CommitJournal` listing the renames is flushed into the staging folders first, so a run killed
    /// between two renames is completed by the next packaging run on those folders
    /// (`StagingRecovery`). If a rename fails, the ones already renamed stay (each is complete and
    /// valid) and the rest are removed; the error names the failed one.
    func commit() throws(PackagingError) {
        finished = true
        defer { removeStagingFolders() }
        if entries.count > 1 {
            let journal = CommitJournal(entries: entries.map {
                CommitJournal.Entry(
                    temporary: CommitJournal.absolute($0.temporary), destination: CommitJournal.absolute($0.destination),
                    original: CommitJournal.identity(of: $0.destination))
            })
            for folder in stagingFolders.values { try journal.write(into: folder.path) }
        }
        for (index, entry) in entries.enumerated() {
            if index == 1 { PackagingKillPoint.reached(.betweenCommitRenames) }
            guard FileSystemPath.rename(entry.temporary, entry.destination) != 0 else { continue }
            let reason = FileSystemPath.errorText(errno)
            for later in entries[index...] { FileSystemPath.unlink(later.temporary) }
            throw .format(.io(path: entry.destination, reason: reason))
        }
        for directory in Set(entries.map { Self.directory(of: $0.destination) }) where durable {
            let descriptor = FileSystemPath.open(directory, O_RDONLY | O_CLOEXEC)
            if descriptor >= 0 {
                _ = fsync(descriptor)
                close(descriptor)
            }
        }
    }

    /// Removes every staged file and the staging folders.
    func discard() {
        finished = true
        for entry in entries { FileSystemPath.unlink(entry.temporary) }
        entries.removeAll()
        removeStagingFolders()
        // Only folders this operation made, and only when empty: a failure leaves no empty
        // output folder behind, and never removes anything that was there before.
        for directory in createdDirectories.reversed() { _ = rmdir(directory) }
        createdDirectories.removeAll()
    }

    private func removeStagingFolders() {
        for folder in stagingFolders.values { folder.remove() }
        stagingFolders.removeAll()
    }

    /// Whether something exists at `path`.
    static func exists(_ path: String) -> Bool {
        FileSystemPath.linkStatus(path) != nil
    }

    /// The directory part of `path` ("." for a bare name).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let directory = String(path[..<slash])
        return directory.isEmpty ? "/" : directory
    }

    /// Creates `path` and its parents as needed; the ones made here are removed by `discard` when
    /// the operation fails and leaves them empty.
    func createDirectory(_ path: String) throws(PackagingError) {
        var built = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            built += "/" + component
            if FileSystemPath.mkdir(built, 0o755) == 0 {
                createdDirectories.append(built)
            } else if errno != EEXIST {
                throw .format(.io(path: built, reason: FileSystemPath.errorText(errno)))
            }
        }
    }
}
