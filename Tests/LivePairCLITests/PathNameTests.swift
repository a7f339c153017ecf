import Foundation
import LivePairCLI
import TestSupport
import Testing

/// Runs `script` with bash in `folder`, `$LIVEPAIR` naming the built executable; bash writes the
/// file names and arguments byte for byte, as a user's shell does.
func runShell(_ script: String, in folder: String) throws -> (status: Int32, output: String, error: String) {
    let binary = try #require(LivePairBinary.url, "the livepair executable is not built")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", script]
    process.currentDirectoryURL = URL(fileURLWithPath: folder)
    process.environment = ["LIVEPAIR": binary.path, "PATH": "/usr/bin:/bin"]
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("livepair-out-\(UUID().uuidString)")
    let error = FileManager.default.temporaryDirectory.appendingPathComponent("livepair-err-\(UUID().uuidString)")
    #expect(FileManager.default.createFile(atPath: output.path, contents: nil))
    #expect(FileManager.default.createFile(atPath: error.path, contents: nil))
    defer {
        try? FileManager.default.removeItem(at: output)
        try? FileManager.default.removeItem(at: error)
    }
    process.standardOutput = try FileHandle(forWritingTo: output)
    process.standardError = try FileHandle(forWritingTo: error)
    try process.run()
    process.waitUntilExit()
    return (
        process.terminationStatus, String(decoding: try Data(contentsOf: output), as: UTF8.self),
        String(decoding: try Data(contentsOf: error), as: UTF8.self)
    )
}

/// A new empty folder under the temporary directory.
func temporaryFolder(_ label: String) throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livepair-\(label)-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
}

@Suite("File names that are not UTF-8, links, FIFOs and control characters")
struct PathNameTests {
    /// A folder `up/caf\xE9/` holding the Live Photo IMG_3582 as `photo\xFF.HEIC` and `IMG_3582.mov`.
    private func latin1Folder() throws -> String {
        let folder = try temporaryFolder("latin1")
        let made = try runShell(
            """
            mkdir -p up/$'caf\\xe9' && cp '\(SampleMedia.path("live/IMG_3582.HEIC"))' up/$'caf\\xe9'/$'photo\\xff.HEIC' \
            && cp '\(SampleMedia.path("live/IMG_3582.mov"))' up/$'caf\\xe9'/IMG_3582.mov
            """, in: folder)
        #expect(made.status == 0, "\(made.error)")
        return folder
    }

    @Test("inspect, pair, validate and import find, pair and show a Live Photo in an invalid-UTF-8 folder")
    func latin1Names() throws {
        let folder = try latin1Folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let inspect = try runShell("\"$LIVEPAIR\" inspect up", in: folder)
        #expect(inspect.status == 0, "\(inspect.error)")
        #expect(inspect.output.contains("up/caf\\xE9/photo\\xFF.HEIC  heic    live-photo-still  602FEBB7    5712x4284"))
        #expect(inspect.output.contains("up/caf\\xE9/IMG_3582.mov    mov     live-photo-video"))
        #expect(inspect.output.hasSuffix("2 files: 1 live-photo-still, 1 live-photo-video\n"))

        let pair = try runShell("\"$LIVEPAIR\" pair up", in: folder)
        #expect(pair.status == 0, "\(pair.error)")
        #expect(pair.output.contains("602FEBB7-6B59-4799-96E6-9C8484D873C7  up/caf\\xE9/photo\\xFF.HEIC + up/caf\\xE9/IMG_3582.mov"))
        #expect(pair.output.contains("1 Live Photo (0 weak)"))

        let validate = try runShell("\"$LIVEPAIR\" validate up", in: folder)
        #expect(validate.status == 0, "\(validate.error)")
        #expect(validate.output.contains("✓ live-photo  602FEBB7-6B59-4799-96E6-9C8484D873C7  up/caf\\xE9/photo\\xFF.HEIC + up/caf\\xE9/IMG_3582.mov  valid"))

        let imported = try runShell("\"$LIVEPAIR\" import --library lib up && \"$LIVEPAIR\" library list --library lib", in: folder)
        #expect(imported.status == 0, "\(imported.error)")
        #expect(imported.output.contains("2 files: 2 imported"))
        #expect(imported.output.contains("  Live Photo  5712x4284  1.910s  "))
        #expect(imported.output.contains("  photo\\xFF.HEIC + IMG_3582.mov\n"))
        #expect(imported.output.hasSuffix("1 asset, 0 pending halves\n"))
    }

    @Test("a file named directly with invalid UTF-8 is read; JSON carries its bytes as \\uf7XX")
    func namedDirectly() throws {
        let folder = try latin1Folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try runShell("\"$LIVEPAIR\" inspect --json up/$'caf\\xe9'/$'photo\\xff.HEIC'", in: folder)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("\"path\": \"up/caf\\uf7e9/photo\\uf7ff.HEIC\""))
        let list = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
        #expect(list.first?["contentIdentifier"] as? String == "602FEBB7-6B59-4799-96E6-9C8484D873C7")
        let text = try runShell("\"$LIVEPAIR\" pair up/$'caf\\xe9'/$'photo\\xff.HEIC' up/$'caf\\xe9'/IMG_3582.mov", in: folder)
        #expect(text.status == 0, "\(text.error)")
        #expect(text.output.contains("1 Live Photo (0 weak)"))
    }

    @Test("a library and an export folder named with invalid UTF-8 are created and used by their bytes")
    func latin1Library() throws {
        let folder = try latin1Folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try runShell(
            """
            "$LIVEPAIR" import --library $'lib\\xe9' up >/dev/null && test -s $'lib\\xe9'/catalog.sqlite \\
            && id=$("$LIVEPAIR" library list --library $'lib\\xe9' | sed -n 2p | cut -d' ' -f1) \\
            && "$LIVEPAIR" library export "$id" --library $'lib\\xe9' --output $'out\\xe9' \\
            && cmp $'out\\xe9'/$'photo\\xff.HEIC' '\(SampleMedia.path("live/IMG_3582.HEIC"))'
            """, in: folder)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "photo\tout\\xE9/photo\\xFF.HEIC\npairedVideo\tout\\xE9/IMG_3582.mov\n")
    }

    @Test("make reads and writes halves named with invalid UTF-8 by their bytes")
    func latin1Make() throws {
        let folder = try latin1Folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try runShell(
            """
            "$LIVEPAIR" make --photo up/$'caf\\xe9'/$'photo\\xff.HEIC' --video up/$'caf\\xe9'/IMG_3582.mov \\
                --identifier 0A1B2C3D-0000-4000-8000-000000000001 --output $'out\\xe9' \\
            && ls $'out\\xe9'/$'photo\\xff.HEIC' $'out\\xe9'/$'photo\\xff.MOV' >/dev/null
            """, in: folder)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("photo: out\\xE9/photo\\xFF.HEIC"), "\(result.output)")
        #expect(result.output.contains("video: out\\xE9/photo\\xFF.MOV"), "\(result.output)")
        let pair = try runShell("\"$LIVEPAIR\" pair $'out\\xe9'", in: folder)
        #expect(pair.output.contains("0A1B2C3D-0000-4000-8000-000000000001  out\\xE9/photo\\xFF.HEIC + out\\xE9/photo\\xFF.MOV"))
    }

    @Test("a FIFO named or found in a folder is refused at once with a reason", .timeLimit(.minutes(10)))
    func fifo() throws {
        let folder = try temporaryFolder("fifo")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let named = try runShell("mkfifo p.heic && \"$LIVEPAIR\" inspect p.heic", in: folder)
        #expect(named.status == 1)
        #expect(named.error == "Error: p.heic: not a regular file (a FIFO)\n")
        let walked = try runShell(
            "mkdir d && mv p.heic d/ && cp '\(SampleMedia.path("live/train.jpg"))' d/ && \"$LIVEPAIR\" inspect d", in: folder)
        #expect(walked.status == 1)
        #expect(walked.error == "Error: d/p.heic: not a regular file (a FIFO)\n")
        #expect(walked.output.hasSuffix("1 file: 1 live-photo-still\n"))
    }

    @Test("links are followed, a link loop ends, and a file reached twice is read once and listed under each path")
    func linksAndLoops() throws {
        let folder = try temporaryFolder("links")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let made = try runShell(
            """
            mkdir -p a/b && cp '\(SampleMedia.path("live/IMG_3582.HEIC"))' a/b/ \
            && cp '\(SampleMedia.path("live/IMG_3582.mov"))' movie.mov \
            && ln -s ../../movie.mov a/b/link.mov && ln -s .. a/b/loop && ln -s ../../a a/b/again
            """, in: folder)
        #expect(made.status == 0, "\(made.error)")
        let collection = FileCollector.collect([folder + "/a", folder + "/a/b/IMG_3582.HEIC", folder + "/movie.mov"])
        #expect(collection.problems.isEmpty)
        #expect(collection.files == [folder + "/a/b/IMG_3582.HEIC", folder + "/a/b/link.mov", folder + "/movie.mov"])
        #expect(collection.links == [folder + "/movie.mov": folder + "/a/b/link.mov"])
        let pair = try runShell("\"$LIVEPAIR\" pair a movie.mov", in: folder)
        #expect(pair.status == 0, "\(pair.error)")
        #expect(pair.output.contains("a/b/IMG_3582.HEIC + a/b/link.mov"))
        #expect(pair.output.contains("Duplicates (1):\n  movie.mov = a/b/link.mov  (same-file)\n"), "\(pair.output)")
        let imported = try runShell("\"$LIVEPAIR\" import --library lib movie.mov ./movie.mov a/b/link.mov a/../movie.mov", in: folder)
        #expect(imported.status == 0, "\(imported.error)")
        let pending = ["./movie.mov", "a/../movie.mov", "a/b/link.mov", "movie.mov"].map {
            "pending   \($0) (waiting for its partner, content identifier 602FEBB7-6B59-4799-96E6-9C8484D873C7)\n"
        }
        #expect(imported.output == pending.joined() + "4 files: 0 imported, 0 duplicates, 4 pending, 0 rejected\n")
    }

    @Test("control characters in names are escaped in text output, one record per line")
    func controlCharacters() throws {
        let folder = try temporaryFolder("control")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let made = try runShell(
            "mkdir d && cp '\(SampleMedia.path("live/train.jpg"))' d/$'a\\nb\\e[31m\\\\.jpg'", in: folder)
        #expect(made.status == 0, "\(made.error)")
        for command in ["inspect", "pair", "validate"] {
            let result = try runShell("\"$LIVEPAIR\" \(command) d", in: folder)
            #expect(!result.output.contains("\u{1B}"), "\(command)")
            #expect(result.output.contains("d/a\\nb\\x1B[31m\\\\.jpg"), "\(command): \(result.output)")
        }
        let json = try runShell("\"$LIVEPAIR\" inspect --json d", in: folder)
        #expect(json.output.contains("\"path\": \"d/a\\nb\\u001b[31m\\\\.jpg\""))
    }

    @Test("TerminalText escapes bytes, controls, bidirectional overrides and backslashes")
    func terminalText() {
        #expect(TerminalText.path("caf\u{F7E9}/x") == "caf\\xE9/x")
        #expect(TerminalText.path("a\tb\r\n\u{7F}\u{85}") == "a\\tb\\r\\n\\x7F\\u{85}")
        #expect(TerminalText.path("evil\u{202E}gpj.exe") == "evil\\u{202E}gpj.exe")
        #expect(TerminalText.path("a\\b") == "a\\\\b")
        #expect(TerminalText.path("café 写真.HEIC") == "café 写真.HEIC")
        #expect(TerminalText.message(about: "/x.mov", "/x.mov: No such file") == "/x.mov: No such file")
        #expect(TerminalText.message(about: "/x.mov", "No such file") == "/x.mov: No such file")
    }
}
