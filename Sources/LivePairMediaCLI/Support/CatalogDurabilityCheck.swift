import LivePairCLI
import LivePairLibrary

/// The warning `serve`, `import` and `library init` give about a PostgreSQL catalog that can lose
/// acknowledged commits (`synchronous_commit=off` or `fsync=off`); `serve --require-durable` refuses it.
enum CatalogDurabilityCheck {
    /// Prints the warning (or, with `require`, the error) on standard error; false when refused.
    /// The problems found are returned for a log line.
    static func check(_ library: PhotoLibrary, require: Bool, streams: OutputStreams) -> (allowed: Bool, problems: [String]) {
        let problems: [String]
        do throws(LibraryError) {
            problems = try library.catalogDurabilityProblems()
        } catch {
            return (true, [])  // the command's own work reports a catalog that does not answer
        }
        guard !problems.isEmpty else { return (true, []) }
        let settings = problems.joined(separator: " and ")
        if require {
            streams.printError(
                "Error: the PostgreSQL catalog has \(settings): acknowledged uploads can be lost in a crash; "
                    + "--require-durable refuses it (set them on, or leave out --require-durable).")
            return (false, problems)
        }
        streams.printError(
            "Warning: the PostgreSQL catalog has \(settings): a commit is acknowledged before it is on disk, so an upload "
                + "answered 'accepted' can be lost if the database server crashes or restarts uncleanly (set them on; "
                + "'serve --require-durable' refuses such a catalog).")
        return (true, problems)
    }
}
