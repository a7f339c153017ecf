#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation
import LivePairFormats

/// The `livepair-media` executable: finding it and handing the process over to it.
enum MediaExecutable {
    /// Its file name, looked for next to `livepair`.
    static let name = "livepair-media"

    /// The path of the running executable (`/proc/self/exe`), or nil when it cannot be read.
    static func runningExecutablePath() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { raw in
            readlink("/proc/self/exe", raw.baseAddress!.assumingMemoryBound(to: CChar.self), raw.count)
        }
        guard count > 0, count < buffer.count else { return nil }
        return FileSystemPath.string(bytes: buffer[..<count])
    }

    /// What to run so that `livepair-media` exists in `directory` (the folder of the running
    /// `livepair`): the exact `swift build` command of the checkout whose build folder it is
    /// (`<root>/.build/[<triple>/]debug|release`), else the install script into the prefix whose
    /// `bin` it is, else a build and a copy.
    static func buildCommand(forDirectory directory: String) -> String {
        let components = directory.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if let build = components.lastIndex(of: ".build"), let configuration = components.last,
            ["debug", "release"].contains(configuration), components.count - build <= 3
        {
            let root = components[..<build].joined(separator: "/")
            let mode = configuration == "release" ? " -c release" : ""
            return "swift build\(mode) --package-path \(shellWord(root.isEmpty ? "/" : root)) --product \(name)"
        }
        if components.last == "bin" {
            let prefix = components.dropLast().joined(separator: "/")
            return "scripts/install.sh --prefix \(shellWord(prefix.isEmpty ? "/" : prefix)) (in a LivePair checkout)"
        }
        return "swift build -c release --product \(name) (in a LivePair checkout), then copy "
            + ".build/release/\(name) into \(shellWord(directory))"
    }

    /// `text` as one shell word: as it is when every character is safe, else in single quotes;
    /// escaped for the terminal (`TerminalText`).
    private static func shellWord(_ text: String) -> String {
        let safe = text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "/._-+,:@%=".unicodeScalars.contains(scalar))
        }
        return TerminalText.path(safe ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'")
    }

    /// Replaces this process with `path` run with `arguments` (the program name is added); returns
    /// why when `execv` fails (on success it does not return). Each argument is passed as the bytes
    /// it was read as (`FileSystemPath`), so paths that are not UTF-8 reach the media commands whole.
    static func replaceProcess(with path: String, arguments: [String]) -> String {
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { FileSystemPath.withCString($0) { strdup($0) } } + [nil]
        defer { argv.forEach { free($0) } }
        _ = FileSystemPath.withCString(path) { execv($0, argv) }
        return FileSystemPath.errorText(errno)
    }
}
