import Foundation
import Testing

/// Runs the built `livepair` executable, as a user or a backend's job runner would (the CLI
/// tests, and the library tests that need a real second process).
public enum LivePairBinary {
    /// The executable next to the test bundle in the build directory.
    public static let url: URL? = executable(named: "livepair")
    /// `livepair-media` (the media commands, which `livepair` hands over to) in the build directory.
    public static let mediaURL: URL? = executable(named: "livepair-media")

    /// The executable `name` next to the test bundle in the build directory.
    public static func executable(named name: String) -> URL? {
        var directory = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return nil
    }

    /// Runs `livepair arguments...` (or the executable at `binary`, with `environment` added to
    /// this process's, and `input` on its standard input when given) and returns its exit
    /// status, standard output and standard error.
    public static func run(
        _ arguments: [String], binary: URL? = nil, environment: [String: String] = [:], input: String? = nil
    ) throws -> (status: Int32, output: String, error: String) {
        let binary = try #require(binary ?? url, "the livepair executable is not built")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        let inputPipe = input.map { _ in Pipe() }
        if let inputPipe { process.standardInput = inputPipe }
        try process.run()
        if let inputPipe, let input {
            // Small inputs (a few paths): written at once, then closed so the child sees its end.
            inputPipe.fileHandleForWriting.write(Data(input.utf8))
            try inputPipe.fileHandleForWriting.close()
        }
        // Read both pipes before waiting, so a large report cannot fill a pipe and block the child.
        var stdoutData = Data()
        let group = DispatchGroup()
        let errorBox = DataBox()
        group.enter()
        DispatchQueue.global().async {
            errorBox.data = error.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        stdoutData = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdoutData, as: UTF8.self), String(decoding: errorBox.data, as: UTF8.self))
    }

    /// The JSON object printed on standard output.
    public static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }
}

/// Data handed from a reader thread.
private final class DataBox: @unchecked Sendable {
    // Sendable: written once by the reader before `group.leave()`, read after `group.wait()`.
    var data = Data()
}
