import LivePair
import LivePairArchive
import LivePairCrypto
import LivePairFormats

/// Archive parts read through the archive bridge (libarchive), for the export readers of `pair`
/// and `import` (`--layout takeout`, zip and tgz parts as inputs).
struct LibarchiveExportArchives: ExportArchiveStreaming {
    func forEachMember(in path: String, spoolDirectory: String?, _ body: (ExportArchiveMember) -> Void) throws {
        do {
            try read(path, reader: ArchiveReader(spoolDirectory: spoolDirectory), body)
        } catch {
            throw ExportArchiveFailure(reason: error.reason)
        }
    }

    func digest(of source: any ByteSource, offset: UInt64, count: UInt64) -> [UInt8]? {
        var hasher = SHA256()
        var done: UInt64 = 0
        while done < count {
            let chunk = Int(min(count - done, 1 << 20))
            guard let bytes = try? source.readExactly(at: offset + done, count: chunk, context: source.name) else { return nil }
            hasher.update(bytes)
            done += UInt64(chunk)
        }
        return hasher.finalize()
    }

    private func read(_ path: String, reader: ArchiveReader, _ body: (ExportArchiveMember) -> Void) throws(ArchiveError) {
        try reader.forEachMember(in: path) { member in
            body(
                ExportArchiveMember(
                    name: member.name, isRegularFile: member.kind == .regularFile, isDirectory: member.kind == .directory,
                    content: member.content, digest: member.sha256, spooledPath: member.spooledPath))
        }
    }
}

/// An archive part that could not be read to its end: the reason, without the part's path (the
/// report names it).
struct ExportArchiveFailure: Error, CustomStringConvertible {
    let reason: String

    var description: String { reason }
}
