// livepair-example-ingest: a small ingestion worker, as a photo backend embeds LivePair.
//
//     livepair-example-ingest --library DIR [--owner NAME] [--live-photo-size N] [PATH...]
//
// Opens (or creates) the library in DIR, watches its changes, ingests each file as an upload
// (PATHs are files or folders, walked in name order; without PATH, one path per line is read from
// standard input) and prints one JSON line per upload; then requests each new Live Photo at N x N
// pixels (default 256) and prints one line for it, and a last line with what the library's
// change observer heard. Exit status 0, or 1 when an upload was rejected or a request failed.
//
// It uses only LivePair's public API (docs/embedding.md walks through it); `.ci/run` builds it and
// a test (ExampleIngestWorkerTests) runs it on SampleMedia/live.
import Foundation
import LivePair
import LivePairLibrary
import LivePairMedia
import Synchronization

/// What the command line asked for.
struct Arguments {
    var library = ""
    var owner = "example"
    var livePhotoSize = 256
    var paths: [String] = []

    init(_ words: [String]) throws(UsageError) {
        var words = words[...]
        while let word = words.popFirst() {
            switch word {
            case "--library": library = try Self.value(of: word, in: &words)
            case "--owner": owner = try Self.value(of: word, in: &words)
            case "--live-photo-size":
                guard let size = Int(try Self.value(of: word, in: &words)), (16...4096).contains(size) else {
                    throw UsageError(message: "--live-photo-size takes a number of pixels from 16 to 4096")
                }
                livePhotoSize = size
            case "-h", "--help": throw UsageError(message: "")
            default:
                if word.hasPrefix("--") { throw UsageError(message: "unknown option \(word)") }
                paths.append(word)
            }
        }
        if library.isEmpty { throw UsageError(message: "--library DIR is required") }
    }

    private static func value(of option: String, in words: inout ArraySlice<String>) throws(UsageError) -> String {
        guard let value = words.popFirst() else { throw UsageError(message: "\(option) needs a value") }
        return value
    }
}

struct UsageError: Error {
    let message: String
    static let usage = "usage: livepair-example-ingest --library DIR [--owner NAME] [--live-photo-size N] [PATH...]"
}

/// One upload's outcome, as printed.
struct UploadLine: Encodable {
    let path: String
    let outcome: String
    var asset: String?
    var contentIdentifier: String?
    var findings: [String]?
}

/// One requested Live Photo, as printed.
struct LivePhotoLine: Encodable {
    let livePhoto: String
    var still: String?
    var frameSize: String?
    var stillImageTime: Double?
    var error: String?
}

/// What the change observer heard, as printed last.
struct ChangesLine: Encodable {
    let changes: Int
    let insertedAssets: Int
    let updatedAssets: Int
}

/// Records the library's changes: the asset identifiers inserted and updated.
final class ChangeCounter: LibraryChangeObserver {
    private let heard = Mutex<(changes: Int, inserted: Set<String>, updated: Set<String>)>((0, [], []))

    func photoLibraryDidChange(_ change: LibraryChange) {
        heard.withLock {
            $0.changes += 1
            $0.inserted.formUnion(change.insertedAssetIdentifiers)
            $0.updated.formUnion(change.updatedAssetIdentifiers)
        }
    }

    var line: ChangesLine {
        heard.withLock { ChangesLine(changes: $0.changes, insertedAssets: $0.inserted.count, updatedAssets: $0.updated.count) }
    }
}

/// Prints `value` as one JSON line.
func printLine(_ value: some Encodable) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(value), let text = String(data: data, encoding: .utf8) else { return }
    print(text)
}

/// The files under `path` in name order (`path` itself when it is a file).
func files(under path: String) -> [String] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return [path] }
    let names = (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? []).sorted()
    return names.map { path + "/" + $0 }.filter {
        FileManager.default.fileExists(atPath: $0, isDirectory: &isDirectory) && !isDirectory.boolValue
    }
}

/// Asks for the Live Photo of `asset` made from its stored resources (synchronously, full quality):
/// its current version, the render of an edit when there is one.
func requestLivePhoto(_ asset: Asset, in library: PhotoLibrary, size: Int, manager: LivePhotoManager) -> LivePhotoLine {
    var line = LivePhotoLine(livePhoto: asset.localIdentifier)
    do {
        // The current version: an edited Live Photo's render (still and movie), else its original.
        let resources = try library.assetResources(for: asset)
        let paths = try [resources.still(version: .current), resources.movie(version: .current)].compactMap { $0 }
            .map { try library.storagePath(for: $0) }
        let result = Mutex<(LivePhoto?, LoaderError?)>((nil, nil))
        manager.requestLivePhoto(
            resourceFileURLs: paths, targetSize: PixelSize(width: size, height: size),
            options: ImageRequestOptions(deliveryMode: .highQualityFormat, isSynchronous: true)
        ) { event, info in
            if case let .final(livePhoto) = event { result.withLock { $0.0 = livePhoto } }
            if let error = info.error { result.withLock { $0.1 = error } }
        }
        let (livePhoto, error) = result.withLock { $0 }
        if let livePhoto {
            line.still = "\(livePhoto.still.width)x\(livePhoto.still.height)"
            line.frameSize = "\(livePhoto.frameSize.width)x\(livePhoto.frameSize.height)"
            line.stillImageTime = livePhoto.movie.stillImageTime
        } else {
            line.error = error.map { "\($0)" } ?? "no Live Photo was delivered"
        }
    } catch {
        line.error = "\(error)"
    }
    return line
}

func run(_ arguments: Arguments) throws -> Int32 {
    // 1. Open the library (created on first use), and listen to its changes.
    let library = try PhotoLibrary.open(at: arguments.library)
    let observer = ChangeCounter()
    library.register(observer)
    defer { library.unregister(observer) }

    // 2. Ingest the uploads one at a time, in the order they arrive.
    let ingestor = Ingestor(library: library)
    var status: Int32 = 0
    var accepted: [String] = []
    var uploads = arguments.paths.flatMap(files(under:))
    if arguments.paths.isEmpty {
        while let path = readLine() { if !path.isEmpty { uploads.append(path) } }
    }
    for path in uploads {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let outcome = try ingestor.ingest(fileAt: path, owner: arguments.owner, originalFilename: name)
        var line = UploadLine(path: path, outcome: outcome.kind, asset: outcome.localIdentifier)
        switch outcome {
        case let .accepted(identifier):
            // A render or .AAE joining its original is accepted into the asset already made.
            if !accepted.contains(identifier) { accepted.append(identifier) }
        case let .pending(contentIdentifier):
            line.contentIdentifier = contentIdentifier
        case let .rejected(findings):
            line.findings = findings.map(\.code.rawValue)
            status = 1
        case .duplicate:
            break
        }
        printLine(line)
    }

    // 3. Request each new Live Photo from the stored resources.
    let manager = LivePhotoManager()
    for identifier in accepted {
        guard let asset = try library.fetchAssets(withLocalIdentifiers: [identifier]).firstObject, asset.isLivePhoto else {
            continue
        }
        let line = requestLivePhoto(asset, in: library, size: arguments.livePhotoSize, manager: manager)
        if line.error != nil { status = 1 }
        printLine(line)
    }

    // 4. What the observer heard (each commit of this process is delivered before it returns).
    printLine(observer.line)
    return status
}

do {
    exit(try run(try Arguments(Array(CommandLine.arguments.dropFirst()))))
} catch let error as UsageError {
    if !error.message.isEmpty { FileHandle.standardError.write(Data(("livepair-example-ingest: " + error.message + "\n").utf8)) }
    FileHandle.standardError.write(Data((UsageError.usage + "\n").utf8))
    exit(error.message.isEmpty ? 0 : 2)
} catch {
    FileHandle.standardError.write(Data("livepair-example-ingest: \(error)\n".utf8))
    exit(1)
}
