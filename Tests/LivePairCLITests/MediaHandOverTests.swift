import Foundation
import Testing
import TestSupport

/// `livepair` links no media library and hands the media commands to `livepair-media` (issue 13).
@Suite("livepair without the media libraries, and the hand-over to livepair-media")
struct MediaHandOverTests {
    /// The media bridge's and the library's C libraries, by file name prefix.
    static let mediaLibraries = ["libavcodec", "libavformat", "libswscale", "libheif", "libturbojpeg", "libexif", "libx265"]

    /// The shared libraries the dynamic loader opened while running `arguments` (from `LD_DEBUG=libs`).
    private func loadedLibraries(_ arguments: [String], binary: URL? = nil) throws -> (status: Int32, libraries: Set<String>) {
        let result = try LivePairBinary.run(arguments, binary: binary, environment: ["LD_DEBUG": "libs"])
        let libraries = result.error.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "calling init: ") else { return nil }
            return String(line[range.upperBound...].split(separator: "/").last ?? "")
        }
        return (result.status, Set(libraries))
    }

    @Test("inspect, pair and validate load no media library; livepair-media does")
    func noMediaLibraries() throws {
        let photo = SampleMedia.path("live/IMG_3582.HEIC"), video = SampleMedia.path("live/IMG_3582.mov")
        for arguments in [["--version"], ["inspect", photo], ["pair", "--json", photo, video], ["validate", photo, video]] {
            let run = try loadedLibraries(arguments)
            #expect(run.status == 0, "\(arguments)")
            #expect(run.libraries.contains { $0.hasPrefix("libFoundation") }, "LD_DEBUG reported no library for \(arguments)")
            let media = run.libraries.filter { name in Self.mediaLibraries.contains { name.hasPrefix($0) } }
            #expect(media.isEmpty, "livepair \(arguments) loaded \(media.sorted())")
        }
        let mediaBinary = try #require(LivePairBinary.mediaURL)
        let media = try loadedLibraries(["--version"], binary: mediaBinary)
        #expect(media.status == 0)
        #expect(media.libraries.contains { $0.hasPrefix("libavcodec") })
    }

    @Test("validate --deep and the media commands run in livepair-media with the same arguments and results")
    func handOver() throws {
        let photo = SampleMedia.path("live/IMG_3582.HEIC"), video = SampleMedia.path("live/IMG_3582.mov")
        let mediaBinary = try #require(LivePairBinary.mediaURL)
        let viaLivePair = try LivePairBinary.run(["validate", "--deep", "--json", photo, video])
        let direct = try LivePairBinary.run(["validate", "--deep", "--json", photo, video], binary: mediaBinary)
        #expect(viaLivePair.status == 0)
        #expect(viaLivePair.output == direct.output)
        #expect(viaLivePair.output.contains("\"hevc-video\""))
        let help = try LivePairBinary.run(["make", "--help"])
        #expect(help.status == 0)
        #expect(help.output.hasPrefix("OVERVIEW: Make a Live Photo pair"))
        #expect(try LivePairBinary.run(["--help"]).output == LivePairBinary.run(["--help"], binary: mediaBinary).output)
        let usage = try LivePairBinary.run(["preview"])
        #expect(usage.status == 64)
        #expect(usage.error.contains("See 'livepair preview --help'"))
    }

    @Test("a media command fails with the reason when livepair-media is not next to livepair")
    func missingMediaExecutable() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("livepair-alone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let alone = directory.appendingPathComponent("livepair")
        try FileManager.default.copyItem(at: try #require(LivePairBinary.url), to: alone)
        let result = try LivePairBinary.run(["make", "--help"], binary: alone)
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        // The error names the command that puts livepair-media there: here (a folder that is not a
        // build folder nor a bin folder) a release build and a copy.
        #expect(
            result.error == "Error: 'make' runs in \(directory.path)/livepair-media, which could not be started: no such file or directory.\n"
                + "Build it next to livepair: swift build -c release --product livepair-media (in a LivePair checkout), "
                + "then copy .build/release/livepair-media into \(directory.path)\n")
        let deep = try LivePairBinary.run(["validate", "--deep", SampleMedia.path("live/train.jpg")], binary: alone)
        #expect(deep.status == 1)
        #expect(deep.error.contains("livepair-media, which could not be started"))
        let inspect = try LivePairBinary.run(["inspect", SampleMedia.path("live/train.jpg")], binary: alone)
        #expect(inspect.status == 0)
    }

    @Test(
        "a livepair without livepair-media names the exact build command of its checkout, or the install script of its prefix",
        arguments: [
            (".build/debug", "swift build --package-path ROOT --product livepair-media"),
            (".build/x86_64-unknown-linux-gnu/release", "swift build -c release --package-path ROOT --product livepair-media"),
            ("prefix/bin", "scripts/install.sh --prefix ROOT/prefix (in a LivePair checkout)"),
        ])
    func missingMediaExecutableNamesTheBuild(folder: String, command: String) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("livepair-checkout-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = root.appendingPathComponent(folder)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let alone = directory.appendingPathComponent("livepair")
        try FileManager.default.copyItem(at: try #require(LivePairBinary.url), to: alone)
        for arguments in [["preview", "--help"], ["import", "--help"], ["serve", "--help"]] {
            let result = try LivePairBinary.run(arguments, binary: alone)
            #expect(result.status == 1)
            let lines = result.error.split(separator: "\n").map(String.init)
            #expect(lines.count == 2)
            #expect(lines.last == "Build it next to livepair: " + command.replacingOccurrences(of: "ROOT", with: root.path))
        }
    }

    @Test("scripts/install.sh --prefix puts livepair and livepair-media side by side, and the media commands run from there")
    func installScript() throws {
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("livepair-prefix-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: prefix) }
        let built = try #require(LivePairBinary.url).deletingLastPathComponent()
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/install.sh")
        // --from installs what is built already (the test's debug build) instead of building in release mode.
        let install = try LivePairBinary.run(["--from", built.path, "--prefix", prefix.path], binary: script)
        #expect(install.status == 0, "\(install.error)")
        #expect(install.output == "installed livepair and livepair-media in \(prefix.path)/bin\n")
        // The prefix's bin is not on this test's PATH: the script says how to add it.
        #expect(install.error.contains("export PATH=\"\(prefix.path)/bin:$PATH\""))
        let installed = prefix.appendingPathComponent("bin/livepair")
        let help = try LivePairBinary.run(["make", "--help"], binary: installed)
        #expect(help.status == 0, "\(help.error)")
        #expect(help.output.hasPrefix("OVERVIEW: Make a Live Photo pair"))
        let usage = try LivePairBinary.run(["install-nothing"], binary: script)
        #expect(usage.status == 64)
        #expect(usage.error.contains("Usage: scripts/install.sh [--prefix <dir>]"))
    }
}
