import Foundation
import Testing
import TestSupport

extension ServeHTTPTests {
    /// CORS (docs/http.md, "Cross-origin pages"): by default a page of another origin gets no
    /// `Access-Control-Allow-Origin` and its preflight 405; with `--cors-origins`, the origins
    /// listed get the preflight's 204 and the header on every response (a 401 too), others nothing.
    @Test func crossOriginPagesAreAllowedOnlyWhenConfigured() throws {
        let preflight = [
            "Origin": "https://site.example", "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": "authorization",
        ]
        let closed = try ServeProcess()
        defer { closed.stop() }
        let plain = HTTPClient(base: closed.base)
        let refused = try plain.send("OPTIONS", "/v1/assets/x/still.jpg", headers: preflight)
        #expect(refused.status == 405)
        #expect(refused.header("Access-Control-Allow-Origin") == nil)
        let read = try plain.send("GET", "/v1/assets", token: "alice-token", headers: ["Origin": "https://site.example"])
        #expect(read.status == 200)
        #expect(read.header("Access-Control-Allow-Origin") == nil)

        let open = try ServeProcess(["--cors-origins", "https://site.example,null"])
        defer { open.stop() }
        let client = HTTPClient(base: open.base)
        let answer = try client.send("OPTIONS", "/v1/assets/x/still.jpg", headers: preflight)
        #expect(answer.status == 204)
        #expect(answer.header("Access-Control-Allow-Origin") == "https://site.example")
        #expect(answer.header("Access-Control-Allow-Methods") == "GET, HEAD")
        #expect(answer.header("Access-Control-Allow-Headers")?.contains("Authorization") == true)
        #expect(answer.header("Access-Control-Max-Age") == "600")
        #expect(answer.header("Vary") == "Origin")
        let asset = try client.send("OPTIONS", "/v1/assets/x", headers: preflight)
        #expect(asset.header("Access-Control-Allow-Methods") == "GET, HEAD, DELETE")
        #expect(try client.send("OPTIONS", "/v1/nothing", headers: preflight).status == 404)

        let listed = try client.send("GET", "/v1/assets", token: "alice-token", headers: ["Origin": "null"])
        #expect(listed.status == 200)
        #expect(listed.header("Access-Control-Allow-Origin") == "null")
        #expect(listed.header("Access-Control-Expose-Headers")?.contains("ETag") == true)
        let unauthorized = try client.send("GET", "/v1/assets", headers: ["Origin": "https://site.example"])
        #expect(unauthorized.status == 401)
        #expect(unauthorized.header("Access-Control-Allow-Origin") == "https://site.example")
        let other = try client.send("GET", "/v1/assets", token: "alice-token", headers: ["Origin": "https://other.example"])
        #expect(other.status == 200)
        #expect(other.header("Access-Control-Allow-Origin") == nil)
        #expect(try client.send("OPTIONS", "/v1/assets", headers: ["Origin": "https://other.example", "Access-Control-Request-Method": "GET"]).status == 405)
        // The element's script is readable from any origin either way.
        #expect(try plain.send("GET", "/v1/live-photo.js").header("Access-Control-Allow-Origin") == "*")
        let script = try client.send("GET", "/v1/live-photo.js", headers: ["Origin": "https://site.example"])
        #expect(script.header("Access-Control-Allow-Origin") == "https://site.example")

        let usage = try LivePairBinary.run(["serve", "--library", open.library, "--tokens", open.directory + "/tokens", "--cors-origins", "site.example/x"])
        #expect(usage.status == 64)
        #expect(usage.error.contains("--cors-origins"))
    }

    /// The `<live-photo>` element's `asset-id` mode on a page of another origin (a file:// page,
    /// origin `null`): against `--cors-origins null` it shows the asset's still and plays its
    /// motion (blob: URLs, the asset's `stillImageTime`); a wrong token and a server without CORS
    /// give their tiles (`browser/live_photo_asset.py`).
    @Test func livePhotoElementFromAnotherOrigin() throws {
        let server = try ServeProcess(["--cors-origins", "null"])
        defer { server.stop() }
        let closed = try ServeProcess()
        defer { closed.stop() }
        let client = HTTPClient(base: server.base)
        #expect(try client.upload(SampleMedia.path("live/train.jpg"), id: "still", token: "alice-token").status == 202)
        let accepted = try client.upload(SampleMedia.path("live/train.mov"), id: "movie", token: "alice-token")
        #expect(accepted.status == 201)
        let asset = try #require(try accepted.json()["asset"] as? [String: Any])
        let id = try #require(asset["id"] as? String)
        let stillTime = try #require(asset["stillImageTime"] as? Double)
        #expect(abs(stillTime - 0.48) < 0.001)  // SampleMedia/manifest.tsv
        try Self.runBrowser(
            "live_photo_asset.py", arguments: [server.base, closed.base, "alice-token", id, String(stillTime)],
            expecting: "ok: asset", server: server)
    }
}
