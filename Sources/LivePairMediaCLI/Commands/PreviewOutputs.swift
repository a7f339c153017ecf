import Foundation
import Synchronization

/// The files `livepair preview` writes into its output folder, and what a run wrote: existing
/// outputs are refused unless `--overwrite`, and a failed run removes the files it wrote and the
/// folder when it created it (docs/cli.md, "preview").
final class PreviewOutputs: Sendable {
    /// The names written, in order.
    static let names = ["placeholder.jpg", "still.jpg", "poster.jpg", "motion.mp4"]

    /// The output folder.
    let directory: String
    private let state = Mutex<(written: [String], createdDirectories: [String])>(([], []))

    /// The outputs of `directory`.
    init(directory: String) { self.directory = directory }

    /// The path of output `name`.
    func path(_ name: String) -> String { directory.hasSuffix("/") ? directory + name : directory + "/" + name }

    /// The outputs that exist already.
    var existing: [String] {
        Self.names.map(path).filter { FileManager.default.fileExists(atPath: $0) }
    }

    /// Creates the folder (and its missing parents), remembering the folders this run made.
    func prepare() throws {
        var missing: [String] = []
        var url = URL(fileURLWithPath: directory).standardizedFileURL
        while !FileManager.default.fileExists(atPath: url.path), url.path != "/" {
            missing.append(url.path)
            url.deleteLastPathComponent()
        }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        state.withLock { $0.createdDirectories = missing }
    }

    /// Records that this run wrote `path`.
    func wrote(_ path: String) { state.withLock { $0.written.append(path) } }

    /// Records that this run is writing the temporary file `path` (removed with what it wrote,
    /// when it is still there: an interrupted run leaves no temporary file).
    func writing(_ path: String) { state.withLock { $0.written.append(path) } }

    /// Removes what this run wrote (and its temporary files), and the folders this run created
    /// (deepest first; `rmdir` removes only empty ones). Also called on SIGINT and SIGTERM
    /// (`InterruptCleanup`).
    func removeWritten() {
        let (written, created) = state.withLock { ($0.written, $0.createdDirectories) }
        for path in written { unlink(path) }
        for folder in created { rmdir(folder) }
    }
}
