import Foundation
import Testing
import TestSupport

extension ServeHTTPTests {
    /// The web page in a real browser: Debian's Chromium driven by Playwright (from the venv that
    /// scripts/setup.sh makes) uploads a pair as two requests, sees one Live Photo tile, hovers it
    /// and sees the motion play and the still come back. Screenshots are kept under
    /// `.build/serve-browser/` (the path is printed).
    @Test func livePhotoPageInChromium() throws {
        try Self.runBrowserScript("live_photo_page.py", still: "live/IMG_3582.HEIC", movie: "live/IMG_3582.mov", expecting: "ok: asset")
    }

    /// Drag and drop: both halves of a pair dropped on the upload box at once (a real `drop`
    /// event with a DataTransfer holding the two files) become one Live Photo tile.
    @Test func droppedPairBecomesOneLivePhotoInChromium() throws {
        try Self.runBrowserScript("drop_upload.py", still: "live/train.jpg", movie: "live/train.mov", expecting: "ok: dropped asset")
    }

    /// The gallery over 602 assets: 600 generated photos taken an hour apart, a plain video, a photo
    /// whose stored bytes no longer decode, and a still (uploaded, then settled alone) whose movie
    /// another client uploads while the page is open. `browser/gallery_page.py` scrolls to the end
    /// (every tile in date-taken order under its month and day headings in New York time), opens
    /// the detail view with the keyboard, steps with the arrows, closes with Escape and the
    /// backdrop, plays the video, checks that the detail view is over every badge, sees the still
    /// turn Live without a reload (the delay is printed: the issue asks for 2 s; the script's waits
    /// give up only after `WAIT_MS`, 10 minutes, a hang guard), and lays the grid out on a phone.
    @Test func galleryOverSixHundredAssetsInChromium() throws {
        let server = try ServeProcess()
        let folder = try DatedPhotos.writeHourly(600, into: server.directory)
        let damaged = server.directory + "/damaged.jpg"
        let damagedBytes = try DatedPhotos.jpeg(taken: "2022:02:02 12:00:00", width: 72, height: 72, shade: 3)
        try Data(damagedBytes).write(to: URL(fileURLWithPath: damaged))
        try DatedPhotos.importFiles([folder, damaged, SampleMedia.path("plain/with-gps.mov")], library: server.library)
        // The damaged photo's stored copy overwritten with zeros in place (a damaged disk).
        let store = try #require(FileManager.default.enumerator(atPath: server.library))
        var overwritten = 0
        while let relative = store.nextObject() as? String {
            let path = server.library + "/" + relative
            guard FileManager.default.contents(atPath: path) == Data(damagedBytes) else { continue }
            chmod(path, 0o644)
            try Data(count: damagedBytes.count).write(to: URL(fileURLWithPath: path))
            overwritten += 1
        }
        #expect(overwritten == 1)
        let binary = try #require(LivePairBinary.url).path
        defer { server.stop() }
        try Self.runBrowser(
            "gallery_page.py",
            arguments: [server.base, "alice-token", SampleMedia.path("live/train.jpg"), SampleMedia.path("live/train.mov"), binary, server.library],
            expecting: "ok: gallery of 602", server: server)
    }

    /// Issue 23: a plain HEVC video (IMG_3582.mov settled alone), whose original Chromium does not
    /// play, plays in the detail view from the server's H.264 copy (`playback.mp4`, made by the
    /// background job): `browser/plain_video.py` checks the tile's duration badge, that the
    /// `<video controls>` has no media error and its `currentTime` advances, and that it was given
    /// `playback.mp4`, never the original.
    @Test func plainHEVCVideoPlaysInTheDetailViewInChromium() throws {
        let server = try ServeProcess(["--background-jobs", "1", "--media-workers", "2"])
        defer { server.stop() }
        try DatedPhotos.importFiles([SampleMedia.path("live/IMG_3582.mov")], library: server.library)
        try DatedPhotos.settlePending(library: server.library)
        _ = try ServeDerivativeJobTests.waitForJobs([HTTPClient(base: server.base)], done: 3)
        try Self.runBrowser("plain_video.py", arguments: [server.base, "alice-token"], expecting: "ok: plain HEVC video played", server: server)
    }

    /// Runs `browser/<script>` against a fresh server with alice's token and the pair's files.
    static func runBrowserScript(_ script: String, still: String, movie: String, expecting success: String) throws {
        let server = try ServeProcess()
        defer { server.stop() }
        try runBrowser(
            script, arguments: [server.base, "alice-token", SampleMedia.path(still), SampleMedia.path(movie)], expecting: success,
            server: server)
    }

    /// Runs `browser/<script> ARGUMENTS... SCREENSHOT_DIR` with Playwright's Python and expects it
    /// to exit 0 printing `success`; `server`'s log is shown when it fails. Screenshots are kept
    /// under `.build/serve-browser/` (the path is printed).
    static func runBrowser(_ script: String, arguments: [String], expecting success: String, server: ServeProcess) throws {
        let tools = ProcessInfo.processInfo.environment["LIVEPAIR_TOOLS_DIR"] ?? "/opt/livepair-tools"
        let python = tools + "/venv-browser/bin/python"
        try #require(
            FileManager.default.isExecutableFile(atPath: python),
            "Playwright's venv is missing at \(python): run scripts/setup.sh")
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium"), "/usr/bin/chromium is missing: run scripts/setup.sh")
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let shots = here.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build/serve-browser").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [here.appendingPathComponent("browser/" + script).path] + arguments + [shots]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        print("browser test \(script), screenshots: \(shots)\n\(text)")
        #expect(process.terminationStatus == 0, "the browser check failed:\n\(text)\nserver log:\n\(server.logText.suffix(4000))")
        #expect(text.contains(success))
    }
}
