import Foundation
import Testing
import TestSupport

extension ServeHTTPTests {
    /// The web page in a real browser: Debian's Chromium driven by Playwright (from the venv that
    /// scripts/setup.sh makes) uploads a pair as two requests, sees one Live Photo tile, hovers it
    /// and sees the motion play and the still come back. Screenshots are kept under
    /// `.build/serve-browser/` (the path is printed).
    @Test func livePhotoPageInChromium() throws {
        let tools = ProcessInfo.processInfo.environment["LIVEPAIR_TOOLS_DIR"] ?? "/opt/livepair-tools"
        let python = tools + "/venv-browser/bin/python"
        try #require(
            FileManager.default.isExecutableFile(atPath: python),
            "Playwright's venv is missing at \(python): run scripts/setup.sh")
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium"), "/usr/bin/chromium is missing: run scripts/setup.sh")
        let server = try ServeProcess()
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("browser/live_photo_page.py").path
        let shots = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/serve-browser").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [
            script, server.base, "alice-token", SampleMedia.path("live/IMG_3582.HEIC"), SampleMedia.path("live/IMG_3582.mov"),
            shots,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        print("browser test screenshots: \(shots)\n\(text)")
        #expect(process.terminationStatus == 0, "the browser check failed:\n\(text)\nserver log:\n\(server.logText.suffix(4000))")
        #expect(text.contains("ok: asset"))
        server.stop()
    }
}
