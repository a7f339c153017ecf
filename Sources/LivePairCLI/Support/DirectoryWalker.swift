#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Lists the regular files under a folder with `opendir`/`readdir` alone: the entry type comes
/// from the directory entry, so a file costs no `stat` (only file systems that do not report
/// types get one `lstat`), and no owner or extended-attribute look-ups. Hidden entries (names
/// starting with a dot) and symbolic links are skipped, so links to folders are never followed.
enum DirectoryWalker {
    /// The regular files under `directory`, as `prefix` + their path relative to it (unsorted).
    /// A folder that cannot be opened is skipped.
    static func regularFiles(under directory: String, prefix: String) -> [String] {
        var files: [String] = []
        walk(directory, relative: "", prefix: prefix, into: &files)
        return files
    }

    private static func walk(_ directory: String, relative: String, prefix: String, into files: inout [String]) {
        guard let stream = opendir(directory) else { return }
        defer { closedir(stream) }
        var folders: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard !name.hasPrefix(".") else { continue }
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            switch kind(of: entry.pointee.d_type, path: path) {
            case .file: files.append(prefix + relative + name)
            case .folder: folders.append(name)
            case .other: continue
            }
        }
        for name in folders {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            walk(path, relative: relative + name + "/", prefix: prefix, into: &files)
        }
    }

    private enum Kind { case file, folder, other }

    /// The entry's kind from its directory-entry type; `lstat` only when the type is unknown.
    private static func kind(of type: UInt8, path: String) -> Kind {
        switch Int32(type) {
        case Int32(DT_REG): return .file
        case Int32(DT_DIR): return .folder
        case Int32(DT_UNKNOWN):
            var info = stat()
            guard lstat(path, &info) == 0 else { return .other }
            switch info.st_mode & S_IFMT {
            case S_IFREG: return .file
            case S_IFDIR: return .folder
            default: return .other
            }
        default: return .other
        }
    }
}
