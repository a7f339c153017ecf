import Foundation
import TestSupport
import Testing

/// A directory library in a test workspace holding one Live Photo, the `live/train` pair, imported
/// through the executable (the starting point of the export and sweep tests).
struct TrainPairLibrary {
    /// The library directory.
    let path: String
    /// The Live Photo asset's local identifier.
    let identifier: String

    /// Imports `live/train.jpg` and `live/train.mov` into `workspace/library`.
    init(in workspace: SampleVariants.Workspace) throws {
        path = workspace.url.appendingPathComponent("library").path
        try workspace.copy("live/train.jpg", as: "inbox/train.jpg")
        try workspace.copy("live/train.mov", as: "inbox/train.mov")
        let imported = try LivePairBinary.run(["import", "--library", path, workspace.url.appendingPathComponent("inbox").path])
        try #require(imported.status == 0, "\(imported.error)")
        let list = try LivePairBinary.json(try LivePairBinary.run(["library", "list", "--library", path, "--json"]).output)
        identifier = try #require((list["assets"] as? [[String: Any]])?.first?["localIdentifier"] as? String)
    }
}
