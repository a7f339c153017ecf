import Foundation
import Testing
import TestSupport

extension ServeHTTPTests {
    /// An upload over the limit gets 413 and leaves nothing (declared length, or a body that
    /// turns out longer); the server goes on.
    @Test func uploadsOverTheLimitAre413() throws {
        let server = try ServeProcess(["--upload-limit", "1000000"])
        let client = HTTPClient(base: server.base)
        let big = try client.upload(SampleMedia.path("live/IMG_3582.HEIC"), id: "big", token: "alice-token")
        #expect(big.status == 413)
        let connection = try RawConnection(port: server.port)
        connection.send(
            "PUT /v1/uploads/chunked HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer alice-token\r\n"
                + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
        let chunk = [UInt8](repeating: 0x41, count: 300_000)
        for _ in 0..<4 { connection.send(Array("493e0\r\n".utf8) + chunk + Array("\r\n".utf8)) }
        connection.send("0\r\n\r\n")
        let answer = connection.statusLine()
        #expect(answer.hasPrefix("HTTP/1.1 413"), "chunked upload over the limit: \(answer)")
        #expect(server.spoolFiles().isEmpty)
        #expect((try client.send("GET", "/v1/pending", token: "alice-token").json()["pending"] as? [Any])?.isEmpty == true)
        #expect(try client.upload(SampleMedia.path("live/train.mov"), id: "small", token: "alice-token").status == 413)
        #expect(try client.send("GET", "/healthz").status == 200)
        server.stop()
    }

    /// A client trickling its body one byte a second is dropped after the request timeout, and
    /// while it trickles the single worker thread keeps answering others.
    @Test func slowClientIsDroppedWithoutHoldingAWorker() throws {
        let server = try ServeProcess(["--threads", "1", "--request-timeout", "3", "--connection-timeout", "30"])
        let client = HTTPClient(base: server.base)
        let connection = try RawConnection(port: server.port)
        connection.send(
            "PUT /v1/uploads/slow HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer alice-token\r\nContent-Length: 1000\r\n\r\n")
        var dropped = false
        for _ in 0..<12 {
            guard connection.send([0x41]) else {
                dropped = true
                break
            }
            _ = try? client.send("GET", "/healthz")
            usleep(1_000_000)
        }
        // Without the request timeout the connection timeout (30 s) would keep it for all 12 s.
        if !dropped { dropped = connection.readAll().isEmpty }
        #expect(dropped, "the trickling client was not dropped")
        #expect(server.spoolFiles().isEmpty)
        // The log, in the order the server finished the requests: health checks answered while the
        // slow upload was still open (before its abort) show the only worker was not held by it.
        let lines = server.logLines()
        let aborted = try #require(
            lines.firstIndex { $0["message"] as? String == "request aborted" && $0["bytes_in"] as? Int ?? 0 > 0 },
            "the slow upload was not logged as aborted")
        let answeredMeanwhile = lines[..<aborted].filter { $0["route"] as? String == "/healthz" && $0["status"] as? Int == 200 }
        #expect(answeredMeanwhile.count >= 2, "the only worker was held by the slow client")
        server.stop()
    }

    /// A server killed (SIGKILL) in the middle of an upload leaves no asset, no pending half and
    /// (after the restart) no spool file; the client's retry then succeeds.
    @Test func killedMidUploadLeavesNothingAndTheRetrySucceeds() throws {
        let server = try ServeProcess()
        // IMG_4580: a pair whose names make no edit (IMG_3582_edited would wait for its original).
        let still = try SampleMedia.bytes(Self.pairs[3].still)
        let connection = try RawConnection(port: server.port)
        connection.send(
            "PUT /v1/uploads/cut HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer alice-token\r\nContent-Length: \(still.count)\r\n\r\n")
        connection.send(Array(still[0..<still.count / 2]))
        let deadline = Date().addingTimeInterval(600)  // a guard against a hang, not a bound on speed
        while server.spoolFiles().isEmpty && Date() < deadline { usleep(20_000) }
        #expect(server.spoolFiles().count == 1, "the upload is being spooled")
        try server.killAndRestart()
        #expect(server.spoolFiles().isEmpty, "the restart removed the dead process's spool file")
        let client = HTTPClient(base: server.base)
        #expect(try client.send("GET", "/v1/assets", token: "alice-token").json()["total"] as? Int == 0)
        #expect((try client.send("GET", "/v1/pending", token: "alice-token").json()["pending"] as? [Any])?.isEmpty == true)
        #expect(try client.upload(SampleMedia.path(Self.pairs[3].still), id: "cut", token: "alice-token").status == 202)
        #expect(try client.upload(SampleMedia.path(Self.pairs[3].movie), id: "cut-movie", token: "alice-token").status == 201)
        server.stop()
    }

    /// Malformed request lines and headers get 400 (or, when libmicrohttpd cannot even find a
    /// URI, a closed connection), never a crash: the server answers normally afterwards.
    @Test func malformedRequestsGet400NeverACrash() throws {
        let server = try ServeProcess()
        let answered400 = [
            "GET /\r\n\r\n", "GET / FOO/1.1\r\n\r\n", "GET / HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
            "PUT /v1/uploads/x HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n",
        ]
        for request in answered400 {
            let connection = try RawConnection(port: server.port)
            connection.send(request)
            #expect(connection.statusLine() == "HTTP/1.1 400 Bad Request", "\(request.debugDescription)")
        }
        for request in ["GARBAGE\r\n\r\n", "GET\r\n\r\n", "\u{16}\u{03}\u{01}\r\n\r\n"] {
            let connection = try RawConnection(port: server.port)
            connection.send(request)
            let answer = connection.statusLine()
            #expect(answer.isEmpty || answer.hasPrefix("HTTP/1.1 400"), "\(request.debugDescription): \(answer)")
        }
        let connection = try RawConnection(port: server.port)
        connection.send("GET /" + String(repeating: "a", count: 70_000) + " HTTP/1.1\r\n\r\n")
        #expect(connection.statusLine() == "HTTP/1.1 414 URI Too Long")
        #expect(try HTTPClient(base: server.base).send("GET", "/healthz").status == 200)
        #expect(server.process.isRunning)
        server.stop()
    }

    /// SIGHUP reloads the tokens file; SIGTERM stops with status 0 after the upload in flight is answered.
    @Test func sighupReloadsTokensAndSigtermStopsGracefully() throws {
        let server = try ServeProcess()
        let client = HTTPClient(base: server.base)
        #expect(try client.send("GET", "/v1/assets", token: "frank-token").status == 401)
        try "frank-token frank\n".write(toFile: server.directory + "/tokens", atomically: true, encoding: .utf8)
        server.send(SIGHUP)
        _ = server.logText(waitingFor: "tokens reloaded")
        #expect(try client.send("GET", "/v1/assets", token: "frank-token").status == 200)
        #expect(try client.send("GET", "/v1/assets", token: "alice-token").status == 401)
        let box = ResponseBox()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            box.response = try? client.upload(SampleMedia.path("live/IMG_4580.mov"), id: "late", token: "frank-token")
            done.signal()
        }
        let deadline = Date().addingTimeInterval(600)  // a guard against a hang, not a bound on speed
        while server.spoolFiles().isEmpty && box.response == nil && Date() < deadline { usleep(1000) }
        #expect(server.stop() == 0)
        #expect(done.wait(timeout: .now() + 10) == .success)
        // Finished (pending, the half is stored) or cleanly aborted (no response): never half-done.
        if let status = box.response?.status { #expect(status == 202) }
        #expect(server.spoolFiles().isEmpty)
        #expect(server.logText.contains("\"message\":\"stopped\""))
    }
}
