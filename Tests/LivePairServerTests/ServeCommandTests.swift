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
        for listen in ["localhost", "[::1]", "1.2.3.4:99999", "a b:80", "[]:80"] {
            let badListen = try LivePairBinary.run(["serve", "--library", "/tmp/x", "--tokens", "t", "--listen", listen])
            #expect(badListen.status == 64, "\(listen)")
        }
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

/// Start-up, listening and the tokens file as an operator meets them.
@Suite struct ServeStartUpTests {
    /// Plain words on standard error beside the JSON line; `localhost` and `[::1]` listen.
    @Test(arguments: ["127.0.0.1", "localhost", "[::1]"]) func listensWhereAskedAndSaysHowToOpenThePage(host: String) throws {
        let server = try ServeProcess(listenHost: host)
        // Written just after the JSON `listening` line that `ServeProcess` waits for.
        let words =
            "livepair serve: listening on http://\(host):\(server.port) with 5 tokens (\(server.directory)/tokens).\n"
            + "Open the page in a browser with one of them: open http://\(host):\(server.port)/#token=YOUR_TOKEN\n"
        #expect(server.logText(waitingFor: words).contains(words))
        let listening = try #require(server.logLines().first { $0["message"] as? String == "listening" })
        #expect(listening["address"] as? String == "\(host):\(server.port)")
        // localhost is bound on 127.0.0.1 (IPv4 first), [::1] on IPv6 only.
        let connection = try RawConnection(port: server.port, ipv6: host == "[::1]")
        connection.send("GET /v1/assets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer alice-token\r\nConnection: close\r\n\r\n")
        #expect(connection.statusLine() == "HTTP/1.1 200 OK")
        #expect(server.stop() == 0)
    }

    /// A port in use is refused with the system's reason, not an HTTP status.
    @Test func aListenFailureSaysWhy() throws {
        let server = try ServeProcess()
        let run = try LivePairBinary.run([
            "serve", "--library", server.directory + "/second", "--tokens", server.directory + "/tokens", "--listen",
            "127.0.0.1:\(server.port)",
        ])
        #expect(run.status == 1)
        #expect(run.error == "Error: cannot listen on 127.0.0.1:\(server.port): Address already in use\n")
        let unknown = try LivePairBinary.run([
            "serve", "--library", server.directory + "/second", "--tokens", server.directory + "/tokens", "--listen", "no-such-host.invalid:0",
        ])
        #expect(unknown.status == 1)
        #expect(unknown.error.hasPrefix("Error: cannot listen on no-such-host.invalid:0: "))
        #expect(!unknown.error.contains("HTTPError"))
        #expect(server.stop() == 0)
    }

    /// Empty or comment-only files are refused at start and on SIGHUP (the old tokens stay); CRLF
    /// line ends are accepted; a missing file gives the system's reason.
    @Test func tokensFileRulesAtStartAndOnReload() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("serve-tokens-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (name, text) in [("empty", ""), ("comments", "# nobody yet\n\n   \n# still nobody\r\n")] {
            try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
            let run = try LivePairBinary.run(["serve", "--library", directory + "/library", "--tokens", directory + "/" + name])
            #expect(run.status == 1)
            #expect(run.error == "Error: \(directory)/\(name): the tokens file has no 'TOKEN OWNER' line (it is empty or only comments)\n")
        }
        let missing = try LivePairBinary.run(["serve", "--library", directory + "/library", "--tokens", directory + "/none"])
        #expect(missing.status == 1)
        #expect(missing.error == "Error: cannot read the tokens file \(directory)/none: No such file or directory\n")

        let server = try ServeProcess()
        let client = HTTPClient(base: server.base)
        try "# emptied by mistake\n".write(toFile: server.directory + "/tokens", atomically: true, encoding: .utf8)
        server.send(SIGHUP)
        #expect(server.logLine { $0["message"] as? String == "tokens not reloaded" } != nil)
        #expect(try client.send("GET", "/v1/assets", token: "alice-token").status == 200, "the old tokens stay")
        try "# written on Windows\r\nfrank-token frank\r\ngrace-token grace\r\n".write(
            toFile: server.directory + "/tokens", atomically: true, encoding: .utf8)
        server.send(SIGHUP)
        let reloaded = try #require(server.logLine { $0["message"] as? String == "tokens reloaded" })
        #expect(reloaded["tokens"] as? Int == 2)
        #expect(try client.send("GET", "/v1/assets", token: "frank-token").status == 200)
        #expect(try client.send("GET", "/v1/assets", token: "grace-token").status == 200)
        #expect(try client.send("GET", "/v1/assets", token: "alice-token").status == 401)
        #expect(server.stop() == 0)
    }

    /// A form upload (`curl -F`) is refused from its headers with what to send instead.
    @Test func multipartUploadIsRefusedWithAHint() throws {
        let server = try ServeProcess()
        let client = HTTPClient(base: server.base)
        let form = Data("--x\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.jpg\"\r\n\r\nabc\r\n--x--\r\n".utf8)
        let refused = try client.send(
            "PUT", "/v1/uploads/form", token: "alice-token", headers: ["Content-Type": "multipart/form-data; boundary=x"], body: form)
        #expect(refused.status == 415)
        #expect(
            try (refused.json()["error"] as? [String: Any])?["message"] as? String
                == "send the file itself as the body (curl -T FILE, or --data-binary @FILE), not a multipart form")
        #expect(server.spoolFiles().isEmpty)
        #expect(try client.upload(SampleMedia.path(ServeHTTPTests.pairs[4].still), id: "raw", token: "alice-token").status == 202)
        #expect(server.stop() == 0)
    }
}
