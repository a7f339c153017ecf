import Foundation
import Testing
import TestSupport

/// `livepair serve`'s command line: help, usage errors, a bad tokens file.
@Suite struct ServeCommandTests {
    @Test func helpAndUsageErrors() throws {
        let help = try LivePairBinary.run(["serve", "--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("USAGE: livepair serve (--library <dir> | --catalog <url> --store <url>) --tokens"))
        #expect(help.output.contains("--s3-endpoint <url>"))
        let missing = try LivePairBinary.run(["serve", "--library", "/tmp/x"])
        #expect(missing.status == 64)
        #expect(missing.error.contains("Error: Missing expected option '--tokens <file>'."))
        #expect(missing.error.contains("See 'livepair serve --help'"))
        let multiNode = try LivePairBinary.run(["serve", "--catalog", "postgres://x", "--store", "s3://photos/media/", "--tokens", "t"])
        #expect(multiNode.status == 64)
        #expect(multiNode.error.contains("Error: Missing expected option '--s3-endpoint <url>' (or LIVEPAIR_S3_ENDPOINT)"))
        let mixed = try LivePairBinary.run(["serve", "--library", "/tmp/x", "--store", "/tmp/y", "--tokens", "t"])
        #expect(mixed.status == 64)
        #expect(mixed.error.contains("Give either '--library <dir>' or '--catalog <url> --store <url>', not both."))
        let badListen = try LivePairBinary.run(["serve", "--library", "/tmp/x", "--tokens", "t", "--listen", "localhost"])
        #expect(badListen.status == 64)
        #expect(try LivePairBinary.run(["--help"]).output.contains("serve"))
    }

    @Test func aBadTokensFileIsRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("serve-cli-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "secret-token alice extra\n".write(toFile: directory + "/tokens", atomically: true, encoding: .utf8)
        let run = try LivePairBinary.run(["serve", "--library", directory + "/library", "--tokens", directory + "/tokens"])
        #expect(run.status == 1)
        #expect(run.error.contains("tokens:1: expected 'TOKEN OWNER'"))
        #expect(!run.error.contains("secret-token"))
        let missing = try LivePairBinary.run(["serve", "--library", directory + "/library", "--tokens", directory + "/none"])
        #expect(missing.status == 1)
    }
}
