import Foundation
import LivePairFormats
import TestSupport
import Testing

@Suite("File-system paths as bytes")
struct FileSystemPathTests {
    /// Runs `script` with bash (which writes names byte for byte, independently of LivePair).
    private func bash(_ script: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "bash failed: \(script)")
    }

    private func temporaryFolder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livepair-paths-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test("undecodable bytes become U+F700+byte; valid UTF-8 is unchanged")
    func mapping() {
        #expect(FileSystemPath.string(bytes: Array("café/IMG.HEIC".utf8)) == "café/IMG.HEIC")
        #expect(FileSystemPath.string(bytes: [0x63, 0x61, 0x66, 0xE9]) == "caf\u{F7E9}")
        #expect(FileSystemPath.bytes("caf\u{F7E9}") == [0x63, 0x61, 0x66, 0xE9])
        // A name that really holds an escape scalar (U+F7E9 = EF 9F A9) is escaped byte by byte.
        let escapeInName: [UInt8] = [0x61, 0xEF, 0x9F, 0xA9]
        #expect(FileSystemPath.string(bytes: escapeInName) == "a\u{F7EF}\u{F79F}\u{F7A9}")
        #expect(FileSystemPath.bytes("a\u{F7EF}\u{F79F}\u{F7A9}") == escapeInName)
        // Overlong, surrogate and truncated sequences are not UTF-8.
        #expect(FileSystemPath.string(bytes: [0xC0, 0xAF]) == "\u{F7C0}\u{F7AF}")
        #expect(FileSystemPath.string(bytes: [0xED, 0xA0, 0x80]) == "\u{F7ED}\u{F7A0}\u{F780}")
        #expect(FileSystemPath.string(bytes: [0xE2, 0x82]) == "\u{F7E2}\u{F782}")
        #expect(FileSystemPath.needsConversion("café") == false)
        #expect(FileSystemPath.needsConversion("caf\u{F7E9}"))
    }

    @Test("bytes → string → bytes is the identity for 20,000 random names")
    func roundTrip() {
        var random = SplitMix64(seed: 0x5EED_F11E)
        for _ in 0..<20_000 {
            let count = Int(random.below(12)) + 1
            // Bias towards the interesting bytes: high bytes, and the escape scalars' lead bytes.
            let bytes = (0..<count).map { _ -> UInt8 in
                switch random.below(4) {
                case 0: return 0xEF
                case 1: return UInt8(0x80 + random.below(0x80))
                default: return UInt8(1 + random.below(255))
                }
            }
            let name = FileSystemPath.string(bytes: bytes)
            #expect(FileSystemPath.bytes(name) == bytes, "\(bytes)")
        }
    }

    @Test("a file named with invalid UTF-8 is listed, opened and read by its bytes")
    func openByBytes() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try bash("cd '\(folder)' && printf 'hello' > $'caf\\xe9.bin'")
        #expect(FileSystemPath.names(in: folder) == ["caf\u{F7E9}.bin"])
        let source = try FileByteSource(path: folder + "/caf\u{F7E9}.bin")
        #expect(try source.read(at: 0, count: 5) == Array("hello".utf8))
        // Writing through the same conversion creates the name bash reads back.
        try AtomicFileWriter.write(Array("x".utf8), to: folder + "/out\u{F7FF}.bin")
        try bash("test \"$(cat '\(folder)'/$'out\\xff.bin')\" = x")
    }

    @Test("a FIFO is refused at once, without waiting for a writer", .timeLimit(.minutes(10)))
    func fifoRefused() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try bash("mkfifo '\(folder)/p.heic'")
        #expect(throws: FormatError.io(path: folder + "/p.heic", reason: "not a regular file (a FIFO)")) {
            _ = try FileByteSource(path: folder + "/p.heic")
        }
        #expect(throws: FormatError.io(path: folder, reason: "not a regular file (a directory)")) {
            _ = try FileByteSource(path: folder)
        }
    }
}
