import Dispatch
import Foundation
import LivePair
import LivePairCLI
import LivePairFormats
import LivePairLibrary
import Synchronization

/// `livepair import --files-from FILE|-`: a long-running ingest process (a "node" of a multi-node
/// backend). Paths are read one per line as they arrive (standard input with `-`), each ingested as
/// one upload as soon as a worker is free (`--jobs` at once), and each outcome is written when it is
/// known: with `--json-lines`, one JSON object per line, written whole with one `write` (no
/// buffering, so a reader sees it at once); otherwise the usual summary at the end of the input.
///
/// Unlike a batch import, the same path given twice is ingested twice (a retry is an upload of its
/// own, answered `duplicate`), and halves are reported as they were when ingested (`pending` stays
/// `pending` in its line: the partner's line, possibly on another node, says `accepted`).
struct ImportStream {
    /// The opened list of paths (standard input, or a file or named pipe).
    let file: UnsafeMutablePointer<FILE>
    let ingestor: Ingestor
    let owner: String
    let jobs: Int
    let jsonLines: Bool
    let streams: OutputStreams

    /// Opens `source` (`-` for standard input) for reading, or reports why it cannot (nil). Done
    /// before the library is opened, so a wrong list creates nothing.
    static func open(_ source: String, streams: OutputStreams) -> UnsafeMutablePointer<FILE>? {
        if source == "-" { return fdopen(0, "r") }
        guard let file = FileSystemPath.withCString(source, { fopen($0, "r") }) else {
            streams.printError(
                "Error: " + TerminalText.message(about: source, "cannot open the list of files: \(String(cString: strerror(errno)))"))
            return nil
        }
        return file
    }

    /// Reads every path, ingests it, reports it; returns the results in the order they finished.
    func run() -> [ImportReport.FileResult] {
        let finished = Mutex<[ImportReport.FileResult]>([])
        let slots = DispatchSemaphore(value: jobs)
        let group = DispatchGroup()
        let queue = DispatchQueue(label: "livepair.import.stream", attributes: .concurrent)
        let (ingestor, owner, jsonLines, streams) = (ingestor, owner, jsonLines, streams)
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while true {
            let length = getline(&line, &capacity, file)
            guard length >= 0, let line else { break }
            var bytes = UnsafeRawBufferPointer(start: line, count: length).map { $0 }
            while let last = bytes.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: "\r") { bytes.removeLast() }
            guard !bytes.isEmpty else { continue }
            let path = FileSystemPath.string(bytes: bytes)
            slots.wait()
            group.enter()
            queue.async {
                defer {
                    slots.signal()
                    group.leave()
                }
                let result = Self.ingest(path, ingestor: ingestor, owner: owner)
                if jsonLines { streams.write(ImportReport.lineJSON(result)) }
                finished.withLock { $0.append(result) }
            }
        }
        group.wait()
        fclose(file)
        return finished.withLock { $0 }
    }

    /// The folder an imported file is in, as an absolute path: an edit's files join by name within it.
    static func folder(of path: String) -> String {
        let parent = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let absolute = parent.hasPrefix("/") ? parent : FileManager.default.currentDirectoryPath + "/" + parent
        return URL(fileURLWithPath: absolute).standardizedFileURL.path
    }

    /// Ingests one upload and returns its result, with what its asset keeps flagged about it.
    private static func ingest(_ path: String, ingestor: Ingestor, owner: String) -> ImportReport.FileResult {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let result: ImportReport.FileResult
        do throws(LibraryError) {
            let outcome = try ingestor.ingest(fileAt: path, owner: owner, originalFilename: name, folder: folder(of: path))
            result = ImportReport.FileResult(path: path, outcome: outcome, error: nil)
        } catch {
            result = ImportReport.FileResult(path: path, outcome: nil, error: error.description)
        }
        return ImportFileList.withFlags([result], library: ingestor.library)[0]
    }
}
