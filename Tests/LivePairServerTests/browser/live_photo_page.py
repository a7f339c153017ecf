"""Drives Debian's Chromium (headless, through Playwright) against a running `livepair serve`:
loads the page with the token in the URL fragment, uploads the two halves of a Live Photo as two
requests, waits for one Live Photo tile (a `<live-photo>` element), hovers it and checks that the
motion plays (the element's currentTime advances) and that the still comes back when the pointer
leaves. Saves screenshots.

Usage: live_photo_page.py BASE_URL TOKEN STILL MOVIE SCREENSHOT_DIR
Exit status 0 when every check passed; 1 with the failed check on stderr.
"""
import os
import sys

from playwright.sync_api import sync_playwright

from browser_support import WAIT_MS, check, open_page, run, wait_for_empty_library, wait_for_one_live_photo


def main():
    base, token, still, movie, shots = sys.argv[1:6]
    os.makedirs(shots, exist_ok=True)
    with sync_playwright() as playwright:
        browser, page, _ = open_page(playwright, base, token, ["--autoplay-policy=no-user-gesture-required"])
        check("#token" not in page.url, "the token stayed in the address bar: " + page.url)
        check(page.evaluate("sessionStorage.getItem('livepair.token')") == token, "the page did not keep the token")
        wait_for_empty_library(page)

        # The two halves, as two uploads (two requests), still first.
        page.set_input_files("#files", still)
        page.wait_for_selector("#uploads li[data-outcome='pending']", timeout=WAIT_MS)
        check(page.locator(".tile").count() == 0, "a tile appeared for a lone half")
        page.set_input_files("#files", movie)
        tile, asset_id = wait_for_one_live_photo(page, after="of the two uploads")
        page.screenshot(path=os.path.join(shots, "grid-still.png"))

        # Hover: the motion plays (once the tile's <live-photo> has its motion and shows its badge).
        page.wait_for_selector(".tile live-photo[video-src]", timeout=WAIT_MS)
        page.mouse.move(5, 5)
        tile.hover()
        page.wait_for_function(
            "(() => { const p = document.querySelector('.tile live-photo'); return p && p.playing && p.currentTime > 0.3; })()",
            timeout=WAIT_MS)
        check(page.locator(".tile live-photo[playing]").count() == 1, "the tile's <live-photo> is not marked as playing")
        page.screenshot(path=os.path.join(shots, "grid-playing.png"))
        time_while_playing = page.evaluate("document.querySelector('.tile live-photo').currentTime")

        # Leave: back to the still.
        page.mouse.move(880, 690)
        page.wait_for_function(
            "(() => { const p = document.querySelector('.tile live-photo'); const v = p.shadowRoot.querySelector('video');"
            " return !p.playing && !p.hasAttribute('playing') && v.paused; })()",
            timeout=WAIT_MS)
        page.screenshot(path=os.path.join(shots, "grid-after-leave.png"))

        # Hover again and stay: at the end of the motion the still comes back by itself.
        tile.hover()
        page.wait_for_function("document.querySelector('.tile live-photo').playing", timeout=WAIT_MS)
        page.wait_for_function("!document.querySelector('.tile live-photo').playing", timeout=WAIT_MS)
        page.mouse.move(880, 690)

        # The detail view opens on click.
        tile.click()
        page.wait_for_selector("#detail:not([hidden]) #detail-media live-photo[photo-src]", timeout=WAIT_MS)
        browser.close()
    print("ok: asset %s, video time %.2f s while hovered; screenshots in %s" % (asset_id, time_while_playing, shots))
    return 0


if __name__ == "__main__":
    run(main)
