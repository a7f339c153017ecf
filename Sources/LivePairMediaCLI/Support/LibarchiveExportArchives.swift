import LivePair
import LivePairArchive

/// Archive parts read through the archive bridge (libarchive), for the export readers of `pair`
/// and `import` (`--layout takeout`, zip and tgz parts as inputs).
struct LibarchiveExportArchives: ExportArchiveStreaming {
    /// The bounds each part is read within.
    let reader = ArchiveReader()

    func forEachMember(in path: String, _ body: (ExportArchiveMember) -> Void) throws {
        do {
            try read(path, body)
        } catch {
            throw ExportArchiveFailure(reason: error.reason)
        }
    }

    private func read(_ path: String, _ body: (ExportArchiveMember) -> Void) throws(ArchiveError) {
        try reader.forEachMember(in: path) { member in
            body(
                ExportArchiveMember(
                    name: member.name, isRegularFile: member.kind == .regularFile, isDirectory: member.kind == .directory,
                    content: member.content, digest: member.sha256))
        }
    }
}

/// An archive part that could not be read to its end: the reason, without the part's path (the
/// report names it).
struct ExportArchiveFailure: Error, CustomStringConvertible {
    let reason: String

    var description: String { reason }
}
