import LivePairCLI
import LivePairFormats
import LivePairLibrary

extension LibraryCommand {
    /// `library migrate --from DIR`: copies the directory library at `from` (opened read-only, so
    /// never changed) into the library `selection` names, created when missing, `batchSize` assets
    /// per transaction.
    static func migrate(
        from: String, into selection: LibrarySelection, configuration: LibraryConfiguration, batchSize: Int, json: Bool,
        quiet: Bool, streams: OutputStreams
    ) throws(LibraryError) -> ExitCode {
        let source = try PhotoLibrary.open(at: from, configuration: LibraryConfiguration(openMode: .openExisting, access: .readOnly))
        let target = try selection.open(configuration: configuration, create: true)
        // After each committed batch: how far a long run (or a killed one) got.
        let progress = ProgressReporter.longWork(streams: streams, label: "migrate", unit: "assets", total: 0, quiet: quiet)
        defer { progress.finish() }
        let report = try LibraryMigration(from: source, to: target, batchSize: batchSize) { done, total in
            progress.update(done: done, total: total)
        }.run()
        progress.finish()
        if json {
            streams.print(
                JSONElement.object([
                    ("from", .string(from)), ("library", .string(selection.name)), ("identity", .optional(target.identity)),
                    ("assetsCopied", .integer(Int64(report.assetsCopied))),
                    ("assetsAlreadyThere", .integer(Int64(report.assetsAlreadyThere))),
                    ("resourcesVerified", .integer(Int64(report.resourcesVerified))),
                    ("bytesVerified", .integer(Int64(report.bytesVerified))),
                    ("albumsCopied", .integer(Int64(report.albumsCopied))),
                    ("membershipsCopied", .integer(Int64(report.membershipsCopied))),
                    ("recordsCopied", .integer(Int64(report.recordsCopied))),
                ]).rendered())
        } else {
            streams.print(
                "migrated \(TerminalText.path(from)) into \(TerminalText.path(selection.name)): "
                    + Wording.count(report.assetsCopied, "asset") + " copied, \(report.assetsAlreadyThere) already there, "
                    + Wording.count(report.resourcesVerified, "resource") + " uploaded and verified, "
                    + Wording.count(report.albumsCopied, "album") + ", "
                    + Wording.count(report.recordsCopied, "pending record") + " copied")
        }
        return .success
    }
}
