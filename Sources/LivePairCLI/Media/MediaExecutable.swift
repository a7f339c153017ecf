#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
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
