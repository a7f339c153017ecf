/// Paths inside an export's tree: archive member names, checked before any use.
public enum ExportTreePath {
    /// Whether `name` stays inside the tree: not empty, not absolute, no `..` component, no NUL or
    /// backslash (zip slip: `../../etc/passwd`, `/etc/passwd`, `..\\x`). Names are never used to
    /// write anything; an unsafe one is reported (`unsafe-name`) and its member not read.
    public static func isSafe(_ name: String) -> Bool {
        guard !name.isEmpty, !name.hasPrefix("/"), !name.contains("\0"), !name.contains("\\") else { return false }
        return !name.split(separator: "/", omittingEmptySubsequences: true).contains("..")
    }

    /// `name` without `.` and empty components and without a trailing `/`.
    public static func normalized(_ name: String) -> String {
        name.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }.joined(separator: "/")
    }

    /// Whether `path` names an archive part by its extension: `.zip`, `.tgz`, `.tar.gz`, `.tar` (any case).
    public static func isArchiveName(_ path: String) -> Bool {
        let lower = path.lowercased()
        return [".zip", ".tgz", ".tar.gz", ".tar"].contains { lower.hasSuffix($0) }
    }
}
