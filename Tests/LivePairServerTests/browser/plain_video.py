"""Drives Debian's Chromium (headless, through Playwright) over `livepair serve`'s gallery holding
one plain HEVC video (see BrowserPageTests.plainHEVCVideoPlaysInTheDetailViewInChromium): the tile
shows the video's duration, the detail view's `<video controls>` is given the server's H.264 copy
(`playback.mp4`, not the HEVC original) and plays it: no media error, `currentTime` advances.
Saves a screenshot.

Usage: plain_video.py BASE_URL TOKEN SCREENSHOT_DIR
Exit status 0 when every check passed; 1 with the failed check on stderr.
"""
import os
import sys

from playwright.sync_api import sync_playwright

from browser_support import WAIT_MS, check, open_page, run


def main():
    base, token, shots = sys.argv[1:4]
    os.makedirs(shots, exist_ok=True)
    with sync_playwright() as playwright:
        browser, page, messages = open_page(playwright, base, token, ["--autoplay-policy=no-user-gesture-required"])
        requested = []
        page.on("request", lambda request: requested.append(request.url))
        hevc = page.evaluate("document.createElement('video').canPlayType('video/mp4; codecs=\"hvc1.2.4.L123.B0\"')")
        print("this Chromium's answer for HEVC: %r" % hevc)

        tile = page.locator(".tile[data-kind='video']")
        tile.wait_for(timeout=WAIT_MS)
        check(page.locator(".tile").count() == 1, "expected one tile, got %d" % page.locator(".tile").count())
        check(tile.locator(".badge.duration").inner_text() == "0:02", "duration badge %r" % tile.locator(".badge.duration").inner_text())
        tile.click()
        page.wait_for_selector("#detail:not([hidden]) #detail-media video[controls]", timeout=WAIT_MS)
        page.wait_for_function("document.querySelector('#detail-media video').src.startsWith('blob:')", timeout=WAIT_MS)
        page.evaluate("document.querySelector('#detail-media video').muted = true; document.querySelector('#detail-media video').play()")
        page.wait_for_function(
            "(() => { const v = document.querySelector('#detail-media video'); return v && (v.error || v.currentTime > 0.5); })()",
            timeout=WAIT_MS)
        error = page.evaluate("(() => { const e = document.querySelector('#detail-media video').error; return e && e.code + ' ' + e.message; })()")
        check(error is None, "the video has a media error: %s" % error)
        state = page.evaluate(
            "(() => { const v = document.querySelector('#detail-media video');"
            " return {time: v.currentTime, duration: v.duration, width: v.videoWidth, height: v.videoHeight}; })()")
        check(state["time"] > 0.5, "currentTime did not advance: %r" % state)
        playback = [url for url in requested if url.endswith("/playback.mp4")]
        check(len(playback) == 1, "the detail view did not ask for playback.mp4 once: %r" % playback)
        check(not [url for url in requested if "/resources/video" in url], "the detail view fetched the original")
        page.screenshot(path=os.path.join(shots, "detail-hevc-video.png"))
        check(not [line for line in messages if line.startswith("page error")], "page errors: %r" % messages)
        browser.close()
        print("ok: plain HEVC video played in the detail view (%.2f s of %.2f s, %dx%d)" % (
            state["time"], state["duration"], state["width"], state["height"]))
    return 0


if __name__ == "__main__":
    run(main)
