import Foundation
import LivePairArchive
import LivePairCrypto
import LivePairFormats
import TestSupport
import Testing

@Suite("ArchiveReader: zip and tar.gz parts streamed once, in place, within bounds")
struct ArchiveReaderTests {
    /// Writes `members` (name -> sample path or inline text) into a zip (`deflate`) or tgz at `path`.
    private func write(_ path: String, _ members: [(String, String)], format: String) throws {
        let program = """
            import io, sys, tarfile, zipfile
            path, fmt = sys.argv[1], sys.argv[2]
            pairs = sys.argv[3:]
            members = [(pairs[i], pairs[i + 1]) for i in range(0, len(pairs), 2)]
            def data(spec):
                if spec.startswith('file:'):
                    return open(spec[5:], 'rb').read()
                if spec.startswith('zeros:'):
                    return bytes(int(spec[6:]))
                return spec.encode()
            if fmt == 'zip':
                with zipfile.ZipFile(path, 'w', zipfile.ZIP_DEFLATED) as z:
                    for name, spec in members:
                        z.writestr(name, data(spec))
            else:
                with tarfile.open(path, 'w:gz') as t:
                    for name, spec in members:
                        if spec.startswith('link:'):
                            info = tarfile.TarInfo(name); info.type = tarfile.SYMTYPE; info.linkname = spec[5:]
                            t.addfile(info)
                            continue
                        payload = data(spec)
                        info = tarfile.TarInfo(name); info.size = len(payload)
                        t.addfile(info, io.BytesIO(payload))
            """
        try ArchiveFixtures.python(program: program, [path, format] + members.flatMap { [$0.0, $0.1] })
    }

    private func members(_ path: String, limits: ArchiveLimits = .default) throws(ArchiveError) -> [ArchiveMember] {
        var found: [ArchiveMember] = []
        try ArchiveReader(limits: limits).forEachMember(in: path) { found.append($0) }
        return found
    }

    @Test("a zip and a tgz give each member once, in order, byte for byte, with Unicode names")
    func streamsMembers() throws {
        let folder = try TestScratch.folder("archive-members")
        for format in ["zip", "tgz"] {
            let path = folder + "/part." + format
            try write(
                path,
                [
                    ("Takeout/Google Photos/Voyage à Paris/train.jpg", "file:" + SampleMedia.path("live/train.jpg")),
                    ("Takeout/Google Photos/Voyage à Paris/métadonnées.json", "{\"title\": \"Voyage à Paris\"}"),
                    ("Takeout/archive_browser.html", "<html></html>"),
                ], format: format)
            let found = try members(path)
            #expect(
                found.map(\.name) == [
                    "Takeout/Google Photos/Voyage à Paris/train.jpg", "Takeout/Google Photos/Voyage à Paris/métadonnées.json",
                    "Takeout/archive_browser.html",
                ])
            #expect(found.allSatisfy { $0.kind == .regularFile && ($0.content as? WindowedByteSource)?.isWhole == true })
            #expect((found[0].content as? WindowedByteSource)?.head == (try SampleMedia.bytes("live/train.jpg")))
            #expect(found[0].sha256 == SHA256.hash(try SampleMedia.bytes("live/train.jpg")))
            #expect(found[0].content.size == 3_478_530)
            #expect((found[1].content as? WindowedByteSource)?.head == Array("{\"title\": \"Voyage à Paris\"}".utf8))
        }
    }

    @Test("a member above the whole-member size keeps its first and last windows; a read in between throws")
    func largeMemberWindows() throws {
        let folder = try TestScratch.folder("archive-windows")
        let path = folder + "/part.zip"
        try write(path, [("IMG_3582.mov", "file:" + SampleMedia.path("live/IMG_3582.mov"))], format: "zip")
        var limits = ArchiveLimits.default
        limits.wholeMemberBytes = 1 << 20
        limits.windowBytes = 256 << 10
        let found = try #require(try members(path, limits: limits).first)
        let member = (name: found.name, sha256: found.sha256, content: try #require(found.content as? WindowedByteSource))
        let movie = try SampleMedia.bytes("live/IMG_3582.mov")
        #expect(!member.content.isWhole)
        #expect(member.content.size == UInt64(movie.count))
        // The digest covers every byte, the dropped middle too.
        #expect(member.sha256 == SHA256.hash(movie))
        #expect(member.content.head == Array(movie.prefix(256 << 10)))
        #expect(member.content.tail == Array(movie.suffix(256 << 10)))
        #expect(try member.content.read(at: UInt64(movie.count - 100), count: 100) == Array(movie.suffix(100)))
        #expect(throws: FormatError.self) { try member.content.read(at: 1 << 20, count: 16) }
    }

    @Test("spooling: each member is written to its own file as it streams, and its content reads that file, none of it kept in memory")
    func spooledMembers() throws {
        let folder = try TestScratch.folder("archive-spool")
        let path = folder + "/part.zip"
        try write(
            path, [("a/IMG_3582.mov", "file:" + SampleMedia.path("live/IMG_3582.mov")), ("a/b.json", "{\"title\": \"b\"}")],
            format: "zip")
        var found: [ArchiveMember] = []
        var limits = ArchiveLimits.default
        limits.wholeMemberBytes = 1 << 20
        try ArchiveReader(limits: limits, spoolDirectory: folder + "/spool").forEachMember(in: path) { found.append($0) }
        let movie = try SampleMedia.bytes("live/IMG_3582.mov")
        #expect(found.map(\.spooledPath) == [folder + "/spool/1", folder + "/spool/2"])
        #expect(found.allSatisfy { $0.content is FileByteSource })
        #expect(FileManager.default.contents(atPath: folder + "/spool/1") == Data(movie))
        // Read from the spooled file: the middle a windowed member drops is there.
        #expect(found[0].content.size == UInt64(movie.count))
        #expect(try found[0].content.read(at: 1 << 20, count: 16) == Array(movie[(1 << 20)..<((1 << 20) + 16)]))
        #expect(found[0].sha256 == SHA256.hash(movie))
        #expect(try found[1].content.read(at: 0, count: 100) == Array("{\"title\": \"b\"}".utf8))
    }

    @Test("hostile parts end in typed errors: a zip bomb, a member or archive too large, too many members, no archive")
    func hostileArchives() throws {
        let folder = try TestScratch.folder("archive-hostile")
        let bomb = folder + "/bomb.zip"
        try write(bomb, [("zeros.jpg", "zeros:33554432")], format: "zip")  // 32 MiB of zeros, about 32 KiB stored
        var limits = ArchiveLimits.default
        limits.ratioGraceBytes = 1 << 20
        limits.maximumExpansionRatio = 100
        #expect(throws: ArchiveError.self) { _ = try members(bomb, limits: limits) }
        do {
            _ = try members(bomb, limits: limits)
        } catch let error {
            guard case let .limitExceeded(_, member, limit, _, maximum) = error else {
                Issue.record("expected a limit, got \(error)")
                return
            }
            #expect(member == "zeros.jpg" && limit == "expansion ratio" && maximum == 100)
            #expect(error.code == "archive-limit-exceeded")
        }
        var small = ArchiveLimits.default
        small.maximumMemberBytes = 1000
        #expect {
            _ = try members(bomb, limits: small)
        } throws: { error in
            guard case let .limitExceeded(_, member, limit, value, maximum) = error as? ArchiveError else { return false }
            return member == "zeros.jpg" && limit == "member size" && value > 1000 && maximum == 1000
        }
        let three = folder + "/three.tgz"
        try write(three, [("a", "1"), ("b", "2"), ("c", "3")], format: "tgz")
        var few = ArchiveLimits.default
        few.maximumMembers = 2
        #expect(throws: ArchiveError.limitExceeded(archive: three, member: nil, limit: "member count", value: 3, maximum: 2)) {
            _ = try members(three, limits: few)
        }
        let text = folder + "/not-an-archive.zip"
        try Data("just text, no archive".utf8).write(to: URL(fileURLWithPath: text))
        #expect {
            _ = try members(text)
        } throws: { error in
            (error as? ArchiveError)?.code == "unreadable-archive"
        }
    }

    @Test("links and unsafe names are given as they are, links never read")
    func linksAndNames() throws {
        let folder = try TestScratch.folder("archive-links")
        let path = folder + "/part.tgz"
        try write(path, [("../../etc/escape.jpg", "x"), ("link.jpg", "link:/etc/passwd")], format: "tgz")
        let found = try members(path)
        #expect(found.map(\.name) == ["../../etc/escape.jpg", "link.jpg"])
        #expect(found.map(\.kind) == [.regularFile, .other])
        #expect(found[1].content.size == 0)
        #expect(found[1].sha256.isEmpty)
    }
}
