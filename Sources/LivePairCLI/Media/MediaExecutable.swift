#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    /// Replaces this process with `path` run with `arguments` (the program name is added); returns
    /// why when `execv` fails (on success it does not return). When `arguments` are this process's
    /// own, its original argument bytes are passed on unchanged (paths need not be UTF-8).
    static func replaceProcess(with path: String, arguments: [String]) -> String {
        let argv: [UnsafeMutablePointer<CChar>?]
        if arguments == Array(CommandLine.arguments.dropFirst()) {
            argv = [strdup(path)] + (1..<Int(CommandLine.argc)).map { CommandLine.unsafeArgv[$0].flatMap { strdup($0) } } + [nil]
        } else {
            argv = ([path] + arguments).map { strdup($0) } + [nil]
        }
        defer { argv.forEach { free($0) } }
        execv(path, argv)
        return String(cString: strerror(errno))
    }
}
