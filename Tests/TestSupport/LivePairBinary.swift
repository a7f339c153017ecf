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
    /// status, standard output and standard error (`ChildProcess`: no pipe, and no descriptor of
    /// this process's inherited).
    public static func run(
        _ arguments: [String], binary: URL? = nil, environment: [String: String] = [:], input: String? = nil
    ) throws -> (status: Int32, output: String, error: String) {
        let binary = try #require(binary ?? url, "the livepair executable is not built")
        let run = try ChildProcess.run(binary.path, arguments, environment: environment, input: input.map { Data($0.utf8) })
        return (run.status, run.outputText, run.errorText)
    }

    /// The JSON object printed on standard output.
    public static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }
}
