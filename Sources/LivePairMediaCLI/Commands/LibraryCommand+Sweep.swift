import LivePairCLI
import LivePairFormats
import LivePairLibrary

extension LibraryCommand {
    /// `library sweep`: removes the stored files nothing uses that are at least `age` seconds old,
    /// over the whole store, and prints how many went.
    static func sweep(
        _ library: PhotoLibrary, olderThan age: Double, name: String, json: Bool, streams: OutputStreams
    ) throws(LibraryError) -> ExitCode {
        let removed = try library.removeUnreferencedResources(olderThan: age)
        if json {
            streams.print(
                JSONElement.object([("library", .string(name)), ("removed", .integer(Int64(removed)))]).rendered())
        } else {
            streams.print("\(removed) unreferenced stored \(removed == 1 ? "file" : "files") removed")
        }
        return .success
    }
}
