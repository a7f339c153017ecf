import Foundation
import Testing
import TestSupport

@testable import LivePairServer

/// A spool's folders belong to the process that holds their lock: a folder whose lock is free
/// (its process is gone) is removed, a held one is kept, whatever process IDs say.
@Suite struct SpoolDirectoryTests {
    @Test func onlyFoldersWhoseLockIsFreeAreRemoved() throws {
        let spool = try TestScratch.folder("spool")
        let mine = SpoolDirectory.uniquePath(in: spool, suffix: "upload")
        try Data("in flight".utf8).write(to: URL(fileURLWithPath: mine))
        let dead = spool + "/0A1B2C3D-DEAD-4000-8000-000000000000"
        try FileManager.default.createDirectory(atPath: dead, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: dead + "/.lock", contents: nil))
        #expect(FileManager.default.createFile(atPath: dead + "/7-upload", contents: Data("left by a crash".utf8)))

        #expect(SpoolDirectory.removeFilesOfDeadProcesses(in: spool) == 1)
        #expect(!FileManager.default.fileExists(atPath: dead))
        #expect(try String(contentsOfFile: mine, encoding: .utf8) == "in flight")
        let folders = try FileManager.default.contentsOfDirectory(atPath: spool)
        #expect(folders == [URL(fileURLWithPath: mine).deletingLastPathComponent().lastPathComponent])
        #expect(SpoolDirectory.uniquePath(in: spool, suffix: "x").hasPrefix(spool + "/" + folders[0] + "/"))
    }
}
