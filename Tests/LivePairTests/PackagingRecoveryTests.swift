import Foundation
@testable import LivePair
import LivePairFormats
import TestSupport
import Testing

/// What a packaging run killed for real (SIGKILL through `LIVEPAIR_KILL_AT`, no cleanup) leaves,
/// and how the next packaging run on the folder completes or removes it.
@Suite("Packaging recovery: journaled commits and dead runs' staging folders")
struct PackagingRecoveryTests {
    static let identifier = "0E5A2C44-9B1D-4F3A-8C7E-2D6B1A9F0C35"

    /// The hidden staging folders in `directory`.
    static func stagingFolders(_ directory: String) -> [String] {
        PackagingOracle.listing(directory).filter { $0.hasPrefix(".livepair-") }
    }

    @Test("restamp --in-place killed between its two renames: the next packaging run completes the pair")
    func killedBetweenRenames() throws {
        let workspace = try SampleVariants.Workspace()
        let folder = workspace.url.appendingPathComponent("pair").path
        let photo = try workspace.copy("live/IMG_3582.HEIC", as: "pair/IMG_3582.HEIC")
        let video = try workspace.copy("live/IMG_3582.mov", as: "pair/IMG_3582.mov")
        let oldIdentifier = ResourceIdentifier().identify(path: video).contentIdentifier?.rawValue
        let killed = try LivePairBinary.run(
            ["restamp", photo, video, "--in-place", "--identifier", Self.identifier],
            environment: ["LIVEPAIR_KILL_AT": "between-commit-renames"])
        #expect(killed.status == 128 + SIGKILL)
        // The kill was real: the still is replaced, the movie is not, and the journal is on disk.
        #expect(ResourceIdentifier().identify(path: photo).contentIdentifier?.rawValue == Self.identifier)
        #expect(ResourceIdentifier().identify(path: video).contentIdentifier?.rawValue == oldIdentifier)
        let left = try #require(Self.stagingFolders(folder).first)
        #expect(PackagingOracle.listing("\(folder)/\(left)") == ["IMG_3582.mov", "journal", "lock"])

        // Any packaging run on the folder finishes the commit first (here a restamp of another pair into it).
        let next = try LivePairBinary.run([
            "restamp", SampleMedia.path("live/train.jpg"), SampleMedia.path("live/train.mov"), "--output", folder,
        ])
        #expect(next.status == 0, "\(next.error)")
        #expect(ResourceIdentifier().identify(path: photo).contentIdentifier?.rawValue == Self.identifier)
        #expect(ResourceIdentifier().identify(path: video).contentIdentifier?.rawValue == Self.identifier)
        #expect(PackagingOracle.listing(folder) == ["IMG_3582.HEIC", "IMG_3582.mov", "train.jpg", "train.mov"])
        let report = Validator().validatePair(
            photo: AssetResource(ResourceIdentifier().identify(path: photo)),
            video: AssetResource(ResourceIdentifier().identify(path: video)))
        #expect(!report.allFindings.contains { $0.severity == .error })
    }

    @Test("make killed before its commit: the next run removes the dead run's staging folder, outputs untouched")
    func killedBeforeCommit() throws {
        let workspace = try SampleVariants.Workspace()
        let folder = workspace.url.appendingPathComponent("out").path
        let killed = try LivePairBinary.run(
            ["make", "--photo", SampleMedia.path("live/train.jpg"), "--video", SampleMedia.path("live/train.mov"),
             "--output", folder],
            environment: ["LIVEPAIR_KILL_AT": "before-commit"])
        #expect(killed.status == 128 + SIGKILL)
        #expect(Self.stagingFolders(folder).count == 1)
        #expect(PackagingOracle.listing(folder).count == 1)
        let next = try LivePairBinary.run([
            "make", "--photo", SampleMedia.path("live/train.jpg"), "--video", SampleMedia.path("live/train.mov"),
            "--output", folder,
        ])
        #expect(next.status == 0, "\(next.error)")
        #expect(PackagingOracle.listing(folder) == ["train.JPG", "train.MOV"])
    }

    @Test("a staging folder whose run is alive is left alone (its lock is held)")
    func liveStagingKept() throws {
        let workspace = try SampleVariants.Workspace()
        let staged = StagedOutputs(overwrite: false)
        let temporary = try staged.stage(workspace.url.appendingPathComponent("a.bin").path)
        try staged.write(temporary) { sink throws(FormatError) in try sink.write([1, 2, 3]) }
        let outcome = StagingRecovery.recover(directories: [workspace.url.path])
        #expect(outcome == StagingRecovery.Outcome())
        #expect(FileManager.default.fileExists(atPath: temporary))
        staged.discard()
        #expect(Self.stagingFolders(workspace.url.path).isEmpty)
    }

    @Test("a journal whose destination changed since the commit began is not applied")
    func conflictingJournalLeftAlone() throws {
        let workspace = try SampleVariants.Workspace()
        let folder = workspace.url.path
        let destination = try workspace.write([9, 9], as: "b.bin")
        let stagingPath = "\(folder)/.livepair-staging-dead"
        try FileManager.default.createDirectory(atPath: stagingPath, withIntermediateDirectories: false)
        try workspace.write([], as: ".livepair-staging-dead/lock")
        try workspace.write([1], as: ".livepair-staging-dead/b.bin")
        let journal = CommitJournal(entries: [
            .init(temporary: "\(stagingPath)/b.bin", destination: destination, original: "absent")
        ])
        #expect(CommitJournal(bytes: journal.bytes) == journal)
        try journal.write(into: stagingPath)
        let outcome = StagingRecovery.recover(directories: [folder])
        #expect(outcome.conflicts == [destination])
        #expect(PackagingOracle.contents(destination) == Data([9, 9]))
        #expect(FileManager.default.fileExists(atPath: "\(stagingPath)/journal"))
    }

    @Test("restamp --in-place through symbolic links replaces the targets and keeps the links")
    func inPlaceThroughLinks() throws {
        let workspace = try SampleVariants.Workspace()
        let photo = try workspace.copy("live/IMG_3582.HEIC", as: "targets/IMG_3582.HEIC")
        let video = try workspace.copy("live/IMG_3582.mov", as: "targets/IMG_3582.mov")
        let links = workspace.url.appendingPathComponent("links").path
        try FileManager.default.createDirectory(atPath: links, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: "\(links)/p.HEIC", withDestinationPath: photo)
        try FileManager.default.createSymbolicLink(atPath: "\(links)/v.mov", withDestinationPath: video)
        let result = try LivePhotoPackager().restamp(
            photo: "\(links)/p.HEIC", video: "\(links)/v.mov", outputDirectory: nil, contentIdentifier: Self.identifier)
        #expect(result.photoPath == CommitJournal.absolute(photo) && result.videoPath == CommitJournal.absolute(video))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: "\(links)/p.HEIC") == photo)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: "\(links)/v.mov") == video)
        #expect(ResourceIdentifier().identify(path: photo).contentIdentifier?.rawValue == Self.identifier)
        #expect(ResourceIdentifier().identify(path: video).contentIdentifier?.rawValue == Self.identifier)
        #expect(PackagingOracle.listing(links) == ["p.HEIC", "v.mov"])
        #expect(PackagingOracle.listing(workspace.url.appendingPathComponent("targets").path) == ["IMG_3582.HEIC", "IMG_3582.mov"])
    }
}
