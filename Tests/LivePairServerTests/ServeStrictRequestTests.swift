import Foundation
import Testing
import TestSupport

/// Requests parsed strictly by a real server: each case that was once taken wrongly (a token
/// cut at a NUL byte, an upload ID cut at `%00`, an encoded `/` routed to a sub-resource, a
/// request that hung) gets its answer at once.
@Suite(.serialized) struct ServeStrictRequestTests {
    /// The status line and body of `request` sent raw from a new connection.
    static func answer(_ server: ServeProcess, _ request: [UInt8]) throws -> (status: String, body: String) {
        let connection = try RawConnection(port: server.port)
        connection.send(request)
        let text = String(decoding: connection.readAll(limit: 1 << 16), as: UTF8.self)
        let parts = text.components(separatedBy: "\r\n\r\n")
        return (parts.first?.components(separatedBy: "\r\n").first ?? "", parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    static func answer(_ server: ServeProcess, _ request: String) throws -> (status: String, body: String) {
        try answer(server, Array(request.utf8))
    }

    /// 1,000 query parameters get 400 (they once left the connection without an answer for 30 s);
    /// 64 are still served.
    @Test func thousandsOfQueryParametersGet400() throws {
        let server = try ServeProcess()
        let many = (0..<1000).map { "a\($0)=1" }.joined(separator: "&")
        let refused = try Self.answer(server, "GET /v1/assets?\(many) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer alice-token\r\n\r\n")
        #expect(refused.status == "HTTP/1.1 400 Bad Request")
        #expect(refused.body.contains("at most 64 query parameters"))
        let allowed = (0..<63).map { "a\($0)=1" }.joined(separator: "&") + "&limit=7"
        let served = try Self.answer(
            server, "GET /v1/assets?\(allowed) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer alice-token\r\nConnection: close\r\n\r\n")
        #expect(served.status == "HTTP/1.1 200 OK")
        #expect(served.body.contains("\"limit\":7"))
        server.stop()
    }

    /// NUL and other control characters, raw or percent-encoded, in the path, an upload ID, the
    /// query or a header value: 400. A token followed by a NUL and more is never taken as the token.
    @Test func controlCharactersGet400() throws {
        let server = try ServeProcess()
        let head = "Host: x\r\nAuthorization: Bearer alice-token\r\nConnection: close\r\n"
        let requests: [[UInt8]] = [
            Array("PUT /v1/uploads/a%00b HTTP/1.1\r\n\(head)Content-Length: 3\r\n\r\nabc".utf8),
            Array("PUT /v1/uploads/a%1Fb HTTP/1.1\r\n\(head)Content-Length: 3\r\n\r\nabc".utf8),
            Array("GET /v1/assets/x%7F HTTP/1.1\r\n\(head)\r\n".utf8),
            Array("GET /v1/assets?sort=%00 HTTP/1.1\r\n\(head)\r\n".utf8),
            Array("GET /v1/assets/a".utf8) + [0] + Array("b HTTP/1.1\r\n\(head)\r\n".utf8),
            Array("GET /v1/assets/a".utf8) + [1] + Array("b HTTP/1.1\r\n\(head)\r\n".utf8),
            Array("GET /v1/assets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer alice-token".utf8) + [0]
                + Array("junk\r\nConnection: close\r\n\r\n".utf8),
            Array("GET /v1/assets HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer alice-token".utf8) + [0]
                + Array("junk\r\n\r\n".utf8),
            Array("GET /v1/assets HTTP/1.1\r\n\(head)X-Note: a".utf8) + [1] + Array("b\r\n\r\n".utf8),
            Array("GET /v1/assets/%zz HTTP/1.1\r\n\(head)\r\n".utf8),
        ]
        for request in requests {
            let answer = try Self.answer(server, request)
            #expect(answer.status == "HTTP/1.1 400 Bad Request", "\(String(decoding: request, as: UTF8.self).debugDescription)")
        }
        let client = HTTPClient(base: server.base)
        #expect((try client.send("GET", "/v1/pending", token: "alice-token").json()["pending"] as? [Any])?.isEmpty == true)
        #expect(try Self.answer(server, "GET /v1/assets HTTP/1.1\r\n\(head)\r\n").status == "HTTP/1.1 200 OK")
        #expect(try Self.answer(server, "GET /v1/assets HTTP/1.1\r\n\(head)X-Note: a\tb\r\n\r\n").status == "HTTP/1.1 200 OK")
        server.stop()
    }

    /// An encoded `/` stays inside the identifier: `<id>%2Fresources%2Fphoto` names no asset (404),
    /// while `<id>/resources/photo` is the photo.
    @Test func anEncodedSlashNeverRoutesToASubResource() throws {
        let server = try ServeProcess()
        let client = HTTPClient(base: server.base)
        let pair = ServeHTTPTests.pairs[1]
        #expect(try client.upload(SampleMedia.path(pair.still), id: "s", token: "alice-token").status == 202)
        let linked = try client.upload(SampleMedia.path(pair.movie), id: "m", token: "alice-token")
        let identifier = try #require((try linked.json()["asset"] as? [String: Any])?["id"] as? String)
        let photo = try client.send("GET", "/v1/assets/\(identifier)/resources/photo", token: "alice-token")
        #expect(photo.status == 200)
        #expect(photo.body.count == (try SampleMedia.bytes(pair.still)).count)
        for encoded in ["%2fresources%2fphoto", "%2Fresources%2Fphoto", "%2Fresources/photo"] {
            let answer = try Self.answer(
                server, "GET /v1/assets/\(identifier)\(encoded) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer alice-token\r\nConnection: close\r\n\r\n")
            #expect(answer.status == "HTTP/1.1 404 Not Found", "\(encoded)")
        }
        server.stop()
    }

    /// Two different `Content-Length` headers: 400; a `Transfer-Encoding` other than chunked: 501 at
    /// once; a body on GET or DELETE: 400 (a declared body of at most 1 MiB once it is read, a
    /// longer or chunked one at once). Nothing is stored.
    @Test func framingErrorsAreAnsweredAtOnce() throws {
        let server = try ServeProcess()
        let head = "Host: x\r\nAuthorization: Bearer alice-token\r\n"
        let twoLengths = try Self.answer(server, "PUT /v1/uploads/two HTTP/1.1\r\n\(head)Content-Length: 3\r\nContent-Length: 4\r\n\r\nabcd")
        #expect(twoLengths.status == "HTTP/1.1 400 Bad Request")
        #expect(twoLengths.body.contains("two different Content-Length headers"))
        let sameLengths = try Self.answer(server, "GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        #expect(sameLengths.status == "HTTP/1.1 200 OK")
        let gzip = try Self.answer(server, "PUT /v1/uploads/gz HTTP/1.1\r\n\(head)Transfer-Encoding: gzip\r\n\r\nabcd")
        #expect(gzip.status == "HTTP/1.1 501 Not Implemented")
        let getBody = try Self.answer(server, "GET /v1/assets HTTP/1.1\r\n\(head)Content-Length: 5\r\nConnection: close\r\n\r\nabcde")
        #expect(getBody.status == "HTTP/1.1 400 Bad Request")
        let deleteBody = try Self.answer(server, "DELETE /v1/assets/x HTTP/1.1\r\n\(head)Content-Length: 5000000\r\n\r\nabcde")
        #expect(deleteBody.status == "HTTP/1.1 400 Bad Request")
        let smallBody = try Self.answer(server, "DELETE /v1/assets/x HTTP/1.1\r\n\(head)Content-Length: 1048576\r\n\r\n" + String(repeating: "A", count: 1 << 20))
        #expect(smallBody.status == "HTTP/1.1 400 Bad Request")
        let connection = try RawConnection(port: server.port)
        connection.send("GET /v1/assets HTTP/1.1\r\n\(head)Transfer-Encoding: chunked\r\n\r\n")
        #expect(connection.statusLine() == "HTTP/1.1 400 Bad Request", "a chunked body on GET is answered before it is read")
        let client = HTTPClient(base: server.base)
        #expect((try client.send("GET", "/v1/pending", token: "alice-token").json()["pending"] as? [Any])?.isEmpty == true)
        #expect(server.spoolFiles().isEmpty)
        server.stop()
    }
}
