import Foundation
import Testing
import TestSupport

extension ServeHTTPTests {
    /// `GET /v1/live-photo.js`: no token, JavaScript, an entity tag that a revalidation answers 304,
    /// readable from any origin, and the script defines the `live-photo` element.
    @Test func livePhotoElementScriptIsServed() throws {
        let server = try ServeProcess()
        defer { server.stop() }
        let client = HTTPClient(base: server.base)
        let response = try client.send("GET", "/v1/live-photo.js")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "text/javascript; charset=utf-8")
        #expect(response.header("Access-Control-Allow-Origin") == "*")
        #expect(response.header("Cache-Control") == "no-cache")
        let script = String(decoding: response.body, as: UTF8.self)
        #expect(script.contains("customElements.define('live-photo'"))
        #expect(script.hasPrefix("'use strict';"))
        let etag = try #require(response.header("ETag"))
        #expect(etag.count == 34 && etag.hasPrefix("\"") && etag.hasSuffix("\""))
        let again = try client.send("GET", "/v1/live-photo.js", headers: ["If-None-Match": "W/" + etag])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        #expect(try client.send("GET", "/v1/live-photo.js", headers: ["If-None-Match": "\"other\""]).status == 200)
    }

    /// The element on a static page opened from disk (file://), its script from the server, the
    /// media (two JPEG + H.264 pairs) from a server that only serves files: hover, press-and-hold
    /// on a phone, keyboard only, reduced motion, the error tile (see the script's docstring).
    @Test func livePhotoElementOnAStaticPageInChromium() throws {
        let server = try ServeProcess()
        defer { server.stop() }
        // Still-image times from SampleMedia/manifest.tsv.
        try Self.runBrowser(
            "live_photo_element.py",
            arguments: [
                server.base + "/v1/live-photo.js", SampleMedia.path("live/51F2BEF7-431A-4D31-8AC1-3284A57826AE.jpeg"),
                SampleMedia.path("live/51F2BEF7-431A-4D31-8AC1-3284A57826AE_3.mov"), "1.201667",
                SampleMedia.path("live/train.jpg"), SampleMedia.path("live/train.mov"), "0.48",
            ],
            expecting: "ok: element on file://", server: server)
    }

    /// Issue 21's "Loop and Bounce derivatives play in Chromium": `livepair edit --variation loop`
    /// and `bounce` of the train Live Photo (22 frames, 1.233 s), then `browser/edit_variations.py`:
    /// both movies play in a `<video>` with no media error and the duration ffprobe reads (Loop
    /// shorter, Bounce about twice the original, its frames mirrored), and `<live-photo>` with
    /// `playback-variation` loops the Loop movie and bounces the original while hovered.
    @Test func loopAndBounceDerivativesPlayInChromium() throws {
        let server = try ServeProcess()
        defer { server.stop() }
        let workspace = try SampleVariants.Workspace()
        let photo = SampleMedia.path("live/train.jpg"), movie = SampleMedia.path("live/train.mov")
        var movies: [String: String] = [:]
        for (variation, frames) in [("loop", 15), ("bounce", 43)] {
            let folder = workspace.url.appendingPathComponent(variation).path
            let run = try LivePairBinary.run(["edit", photo, movie, "--variation", variation, "-o", folder, "--json"])
            #expect(run.status == 0, "\(run.error)")
            let json = try LivePairBinary.json(run.output)
            // Loop: 22 - 7 crossfaded frames (a third of 22); Bounce: 2 x 22 - 1.
            #expect(json["frameCount"] as? Int == frames, "\(variation): \(json["frameCount"] ?? "none")")
            movies[variation] = try #require((json["video"] as? [String: Any])?["path"] as? String)
        }
        try Self.runBrowser(
            "edit_variations.py",
            arguments: [
                server.base + "/v1/live-photo.js", movie, try #require(movies["loop"]), try #require(movies["bounce"]), photo,
            ],
            expecting: "ok: Loop 1.000 s and Bounce 2.461 s (original 1.233 s) play in Chromium", server: server)
    }
}
