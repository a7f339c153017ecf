import Foundation
import Testing
import TestSupport

/// A fresh directory under the system temporary directory, removed by `remove()`.
struct StorageScratchDirectory {
    let path: String

    init(_ label: String) throws {
        path = NSTemporaryDirectory() + "livepair-\(label)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { path + "/" + name }

    func write(_ bytes: [UInt8], to name: String) throws -> String {
        let target = file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: target))
        return target
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// Runs a program and returns its standard output.
func storageRunProgram(_ executable: String, _ arguments: [String]) throws -> String {
    try ChildProcess.run(executable, arguments).outputText
}
