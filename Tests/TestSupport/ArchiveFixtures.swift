import Foundation

/// Archive fixtures written by Python's standard library (`zipfile`, `tarfile`): the Takeout
/// export of `Tests/Fixtures/takeout/make_takeout.py`, and small archives described inline.
public enum ArchiveFixtures {
    /// Builds the two-part Takeout export from `SampleMedia/` into `folder`; returns the parts'
    /// paths (`takeout-20261201T000000Z-001.zip`, `-002.tgz`).
    public static func takeout(in folder: String) throws -> [String] {
        let script = SampleMedia.root.deletingLastPathComponent().appendingPathComponent("Tests/Fixtures/takeout/make_takeout.py")
        try python([script.path, SampleMedia.root.path, folder])
        return [folder + "/takeout-20261201T000000Z-001.zip", folder + "/takeout-20261201T000000Z-002.tgz"]
    }

    /// Builds the export folders of the other layouts (Tests/Fixtures/exports/make_exports.py) into
    /// `folder`: `takeout-old`, `icloud`, `icloudpd-suffix`, `icloudpd-original`, `image-capture`,
    /// `smart-switch`.
    public static func exports(in folder: String) throws {
        let script = SampleMedia.root.deletingLastPathComponent().appendingPathComponent("Tests/Fixtures/exports/make_exports.py")
        try python([script.path, SampleMedia.root.path, folder])
    }

    /// Runs `python3 -c program` with `arguments` (`sys.argv[1:]`).
    public static func python(program: String, _ arguments: [String]) throws {
        try python(["-c", program] + arguments)
    }

    private static func python(_ arguments: [String]) throws {
        let run = try ChildProcess.run("/usr/bin/python3", arguments)
        guard run.status == 0 else { throw FixtureError(message: "python3 failed: " + run.errorText) }
    }

    /// A fixture script failed.
    public struct FixtureError: Error, CustomStringConvertible {
        /// What it said.
        public let message: String
        /// The message.
        public var description: String { message }
    }
}
