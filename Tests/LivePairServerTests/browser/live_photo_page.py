"""Drives Debian's Chromium (headless, through Playwright) against a running `livepair serve`:
loads the page with the token in the URL fragment, uploads the two halves of a Live Photo as two
requests, waits for one Live Photo tile, hovers it and checks that the motion plays (the video's
currentTime advances) and that the still comes back when the pointer leaves. Saves screenshots.

Usage: live_photo_page.py BASE_URL TOKEN STILL MOVIE SCREENSHOT_DIR
Exit status 0 when every check passed; 1 with the failed check on stderr.
"""
import os
import sys

from playwright.sync_api import sync_playwright


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def main():
    base, token, still, movie, shots = sys.argv[1:6]
    os.makedirs(shots, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", headless=True,
            args=["--no-sandbox", "--autoplay-policy=no-user-gesture-required"])
        # The page forbids eval (script-src 'self'); Playwright's wait_for_function needs it.
        page = browser.new_page(viewport={"width": 900, "height": 700}, bypass_csp=True)
        messages = []
        page.on("console", lambda message: messages.append(message.text))
        page.on("pageerror", lambda error: messages.append("page error: " + str(error)))
        page.goto(base + "/#token=" + token)
        check("#token" not in page.url, "the token stayed in the address bar: " + page.url)
        check(page.evaluate("sessionStorage.getItem('livepair.token')") == token, "the page did not keep the token")
        page.wait_for_function("document.getElementById('status').textContent.includes('0 items')", timeout=15000)

        # The two halves, as two uploads (two requests), still first.
        page.set_input_files("#files", still)
        page.wait_for_selector("#uploads li[data-outcome='pending']", timeout=60000)
        check(page.locator(".tile").count() == 0, "a tile appeared for a lone half")
        page.set_input_files("#files", movie)
        page.wait_for_selector("#uploads li[data-outcome='accepted']", timeout=60000)
        outcomes = page.eval_on_selector_all("#uploads li", "rows => rows.map(row => row.dataset.outcome)")
        check(outcomes == ["pending", "accepted"], "upload outcomes: %s" % outcomes)

        tile = page.locator(".tile[data-live-photo][data-asset-id]")
        tile.wait_for(timeout=30000)
        check(page.locator(".tile").count() == 1, "expected exactly one tile, got %d" % page.locator(".tile").count())
        page.wait_for_function(
            "document.querySelector('.tile').dataset.still === 'ready' && document.querySelector('.tile img').naturalWidth > 0",
            timeout=120000)
        asset_id = tile.get_attribute("data-asset-id")
        check(bool(asset_id), "the tile has no asset id")
        page.screenshot(path=os.path.join(shots, "grid-still.png"))

        # Hover: the motion plays.
        page.mouse.move(5, 5)
        tile.hover()
        page.wait_for_function(
            "(() => { const v = document.querySelector('.tile video'); return v && v.currentTime > 0.3; })()",
            timeout=180000)
        check("playing" in (tile.get_attribute("class") or ""), "the tile is not marked as playing")
        page.screenshot(path=os.path.join(shots, "grid-playing.png"))
        time_while_playing = page.evaluate("document.querySelector('.tile video').currentTime")

        # Leave: back to the still.
        page.mouse.move(880, 690)
        page.wait_for_function(
            "(() => { const t = document.querySelector('.tile'); const v = t.querySelector('video');"
            " return !t.classList.contains('playing') && v.paused && getComputedStyle(v).opacity === '0'; })()",
            timeout=10000)
        page.screenshot(path=os.path.join(shots, "grid-after-leave.png"))

        # Hover again and stay: at the end of the motion the still comes back by itself.
        tile.hover()
        page.wait_for_function("document.querySelector('.tile').classList.contains('playing')", timeout=30000)
        page.wait_for_function("!document.querySelector('.tile').classList.contains('playing')", timeout=30000)
        page.mouse.move(880, 690)

        # The detail view opens on click.
        tile.click()
        page.wait_for_selector("#detail:not([hidden]) #detail-media img", timeout=10000)
        browser.close()
    print("ok: asset %s, video time %.2f s while hovered; screenshots in %s" % (asset_id, time_while_playing, shots))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception as error:  # the Swift test prints this output when the script fails
        print("FAILED: %s: %s" % (type(error).__name__, error), file=sys.stderr)
        sys.exit(1)
