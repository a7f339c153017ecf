"""Drives Debian's Chromium (headless, through Playwright) over `livepair serve`'s gallery on a
library of 602 assets (see BrowserPageTests.galleryOverSixHundredAssetsInChromium): scrolls
through every asset and checks the date-taken order and the month and day headings (in New York
time), a damaged photo's tile, the detail view by keyboard (Enter, arrows, Escape) and by mouse
(backdrop), a plain video playing in it, that the detail view is over every badge on the screen
(document.elementFromPoint), an upload from another client appearing and a still turning Live
without a reload, and the phone layout. Saves a screenshot of each state.

The issue asks for the Live update within 2 s: the delay is measured and printed; the wait gives
up after WAIT_MS (a guard against a hang, not the requirement; timings belong in livepair-bench).

Usage: gallery_page.py BASE_URL TOKEN STILL MOVIE LIVEPAIR_BINARY LIBRARY SCREENSHOT_DIR
Exit status 0 when every check passed; 1 with the failed check on stderr.
"""
import datetime
import json
import os
import subprocess
import sys
import time
import urllib.request
import zoneinfo

from playwright.sync_api import sync_playwright

from browser_support import CHROMIUM, WAIT_MS, check, run

ZONE = "America/New_York"
TOTAL = 602


def request(base, token, method, path, body=None, headers=None):
    """One HTTP request as another client of the server; returns (status, parsed JSON body)."""
    call = urllib.request.Request(base + path, data=body, method=method, headers={"Authorization": "Bearer " + token, **(headers or {})})
    try:
        with urllib.request.urlopen(call, timeout=120) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def listing(base, token):
    """Every asset, newest first, as the API pages them."""
    assets, cursor = [], None
    while True:
        status, page = request(base, token, "GET", "/v1/assets?limit=1000" + ("&cursor=" + cursor if cursor else ""))
        check(status == 200, "listing answered %d" % status)
        assets += page["assets"]
        cursor = page.get("next")
        if not cursor:
            return assets


def expected_layout(assets):
    """The grid's children as ('month', key), ('day', key) and ('tile', id) in New York time."""
    zone = zoneinfo.ZoneInfo(ZONE)
    layout, month, day = [], None, None
    for asset in assets:
        taken = datetime.datetime.fromisoformat(asset["dateTaken"].replace("Z", "+00:00")).astimezone(zone)
        if (taken.year, taken.month) != month:
            month = (taken.year, taken.month)
            layout.append(("month", "%d-%d" % month))
        if (taken.year, taken.month, taken.day) != day:
            day = (taken.year, taken.month, taken.day)
            layout.append(("day", "%d-%d-%d" % day))
        layout.append(("tile", asset["id"]))
    return layout


GRID_LAYOUT = """() => [...document.getElementById('grid').children].filter(e => e.id !== 'more').map(e =>
  e.tagName === 'H2' ? ['month', e.dataset.month] : e.tagName === 'H3' ? ['day', e.dataset.day] : ['tile', e.dataset.assetId])"""


def scroll_to_end(page):
    """Scrolls down until the grid has loaded its last page; returns the number of scroll steps."""
    steps = 0
    while page.evaluate("document.getElementById('grid').dataset.complete") != "true":
        page.mouse.wheel(0, 5000)
        page.wait_for_timeout(50)
        steps += 1
        check(steps < 600, "the grid never loaded its last page: %d tiles, status %r, scrolled to %d of %d" % (
            page.locator(".tile").count(), page.locator("#status").inner_text(), page.evaluate("scrollY"),
            page.evaluate("document.body.scrollHeight")))
    return steps


def detail_id(page):
    return page.evaluate("document.getElementById('detail').hidden ? null : document.getElementById('detail').dataset.assetId")


STARTED = time.monotonic()


def phase(name):
    """Prints how long the script has run, for the test's log."""
    print("%6.1f s  %s" % (time.monotonic() - STARTED, name), flush=True)


def main():
    base, token, still, movie, binary, library, shots = sys.argv[1:8]
    os.makedirs(shots, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--autoplay-policy=no-user-gesture-required"])
        context = browser.new_context(viewport={"width": 1280, "height": 800}, timezone_id=ZONE, bypass_csp=True)
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(base + "/#token=" + token)
        page.wait_for_function("document.getElementById('status').textContent === '%d items'" % TOTAL, timeout=WAIT_MS)
        page.wait_for_selector(".tile[data-still='ready']", timeout=WAIT_MS)
        page.screenshot(path=os.path.join(shots, "gallery-top.png"))
        phase("first screen")

        # Every asset reachable by scrolling, in date-taken order under its headings.
        assets = listing(base, token)
        check(len(assets) == TOTAL, "the API lists %d assets" % len(assets))
        first_page = len(page.query_selector_all(".tile"))
        check(first_page < TOTAL, "the first page already held every tile (%d)" % first_page)
        steps = scroll_to_end(page)
        layout = [tuple(item) for item in page.evaluate(GRID_LAYOUT)]
        expected = expected_layout(assets)
        if layout != expected:
            first = next(i for i in range(max(len(layout), len(expected)))
                         if i >= len(layout) or i >= len(expected) or layout[i] != expected[i])
            check(False, "grid layout differs from the API's order at %d: %s, expected %s" % (
                first, layout[first:first + 3], expected[first:first + 3]))
        months = [key for kind, key in layout if kind == "month"]
        check(months == ["2022-2", "2020-1", "2019-12", "2019-7"], "month headings %s" % months)
        days = [key for kind, key in layout if kind == "day"]
        check(len(days) == 28 and days[1] == "2020-1-25" and days[-2] == "2019-12-31", "day headings %s" % days)
        page.screenshot(path=os.path.join(shots, "gallery-end.png"))
        phase("scrolled to the end")

        # The plain video (the oldest: last) has its duration on its tile and plays in the detail view.
        video = assets[-1]
        check(video["mediaType"] == "video", "the last asset is %s" % video["mediaType"])
        video_tile = page.locator(".tile[data-asset-id='%s']" % video["id"])
        check(video_tile.locator(".badge.duration").inner_text() == "0:04", "duration badge %r" % video_tile.locator(".badge").inner_text())
        video_tile.click()
        page.wait_for_selector("#detail:not([hidden]) #detail-media video[controls]", timeout=WAIT_MS)
        page.evaluate("document.querySelector('#detail-media video').muted = true; document.querySelector('#detail-media video').play()")
        page.wait_for_function("document.querySelector('#detail-media video').currentTime > 0.5", timeout=WAIT_MS)
        location = page.locator("#detail-info dd[data-field='location']").inner_text()
        check(location == "32.09290, 34.86200", "location %r" % location)
        page.wait_for_function("document.querySelector(\"#detail-info dd[data-field='size']\").textContent === '320 × 568'", timeout=WAIT_MS)
        page.screenshot(path=os.path.join(shots, "detail-video.png"))
        phase("video played")
        page.keyboard.press("Escape")
        page.wait_for_function("document.getElementById('detail').hidden", timeout=WAIT_MS)
        check(page.evaluate("document.activeElement.dataset.assetId") == video["id"], "focus did not return to the video's tile")

        # Back to the top; the damaged photo's tile says why it shows nothing, with no image.
        page.evaluate("window.scrollTo(0, 0)")
        damaged = page.locator(".tile[data-asset-id='%s']" % assets[0]["id"])
        damaged.locator(".failure").wait_for(timeout=WAIT_MS)
        text = damaged.locator(".failure").inner_text()
        check("cannot be decoded" in text, "the damaged tile says %r" % text)
        check(damaged.locator("img").count() == 0, "the damaged tile keeps an image")
        page.screenshot(path=os.path.join(shots, "damaged-tile.png"))
        phase("damaged tile")

        # Another client uploads the still; settled alone, it appears without a reload.
        status, body = request(base, token, "PUT", "/v1/uploads/gallery-still", open(still, "rb").read(), {"X-Original-Filename": "train.jpg"})
        check(status == 202, "the still's upload answered %d %s" % (status, body))
        subprocess.run([binary, "library", "settle", "--older-than", "0s", "--library", library], check=True, capture_output=True)
        page.wait_for_function("document.getElementById('status').textContent === '%d items'" % (TOTAL + 1), timeout=WAIT_MS)
        train = [a for a in listing(base, token) if a["resources"][0].get("originalFilename") == "train.jpg"]
        check(len(train) == 1 and not train[0]["isLivePhoto"], "the settled still: %s" % train)
        train_id = train[0]["id"]
        tile_selector = ".tile[data-asset-id='%s']" % train_id
        page.wait_for_selector(tile_selector, timeout=WAIT_MS)
        check(page.locator(tile_selector + "[data-live-photo]").count() == 0, "the lone still is shown as Live")

        # Its movie, uploaded by another client: the tile turns Live without a reload.
        status, body = request(base, token, "PUT", "/v1/uploads/gallery-movie", open(movie, "rb").read(), {"X-Original-Filename": "train.mov"})
        uploaded = time.monotonic()
        check(status == 201 and body["asset"]["id"] == train_id and body["asset"]["isLivePhoto"], "the movie's upload: %d %s" % (status, body))
        page.wait_for_selector(tile_selector + "[data-live-photo] live-photo", timeout=WAIT_MS)
        live_delay = time.monotonic() - uploaded
        # Then its <live-photo> gets the motion (made on demand here: no background jobs) and shows its badge.
        page.wait_for_selector(tile_selector + " live-photo[video-src]", timeout=WAIT_MS)
        page.screenshot(path=os.path.join(shots, "live-after-upload.png"))
        phase("turned Live")

        # Keyboard only: Tab to the first tile, Enter opens it, arrows step, Escape closes.
        page.evaluate("window.scrollTo(0, 0); document.activeElement.blur()")
        order = [asset["id"] for asset in listing(base, token)]
        for _ in range(12):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.classList.contains('tile')"):
                break
        check(page.evaluate("document.activeElement.dataset.assetId") == order[0], "Tab did not reach the first tile")
        page.keyboard.press("Enter")
        page.wait_for_function("!document.getElementById('detail').hidden", timeout=WAIT_MS)
        check(detail_id(page) == order[0], "Enter opened %s" % detail_id(page))
        page.wait_for_function("document.querySelector(\"#detail-info dd[data-field='problem']\") !== null", timeout=WAIT_MS)
        for expected_index in [1, 2, 3]:
            page.keyboard.press("ArrowRight")
            page.wait_for_function("document.getElementById('detail').dataset.assetId === '%s'" % order[expected_index], timeout=WAIT_MS)
        page.keyboard.press("ArrowLeft")
        page.wait_for_function("document.getElementById('detail').dataset.assetId === '%s'" % order[2], timeout=WAIT_MS)
        taken = page.locator("#detail-info dd[data-field='taken']").inner_text()
        check("2020" in taken and "T" not in taken and "Z" not in taken, "the date is not a human one: %r" % taken)
        page.wait_for_function("document.querySelector(\"#detail-info dd[data-field='camera']\") !== null", timeout=WAIT_MS)
        camera = page.locator("#detail-info dd[data-field='camera']").inner_text()
        check(camera == "LivePair Test Camera", "camera %r" % camera)
        page.screenshot(path=os.path.join(shots, "detail-photo.png"))
        phase("keyboard")

        # Nothing of the grid over the detail view: every badge's centre hits the detail view.
        hits = page.evaluate("""() => [...document.querySelectorAll('.tile .badge'),
            ...[...document.querySelectorAll('.tile live-photo')].map(player => player.shadowRoot.querySelector('.badge'))].map(badge => {
            const box = badge.getBoundingClientRect();
            if (box.bottom < 0 || box.top > innerHeight || box.width === 0) return null;
            const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
            return hit && hit.closest('#detail') !== null;
          }).filter(hit => hit !== null)""")
        check(len(hits) >= 1 and all(hits), "badges drawn over the detail view: %s" % hits)
        page.keyboard.press("Escape")
        page.wait_for_function("document.getElementById('detail').hidden", timeout=WAIT_MS)

        # The Live tile opened with the mouse; the backdrop closes it.
        page.locator(tile_selector).click()
        page.wait_for_function("!document.getElementById('detail').hidden", timeout=WAIT_MS)
        kind = page.locator("#detail-info dd[data-field='kind']").inner_text()
        check(kind == "Live Photo", "kind %r" % kind)
        page.screenshot(path=os.path.join(shots, "detail-live.png"))
        page.mouse.click(5, 5)
        page.wait_for_function("document.getElementById('detail').hidden", timeout=WAIT_MS)
        check(not errors, "page errors: %s" % errors)
        context.close()

        # A phone: three tiles a row, a tap opens the detail view, Escape closes it.
        phone = browser.new_context(viewport={"width": 390, "height": 844}, timezone_id=ZONE, has_touch=True, is_mobile=True, bypass_csp=True)
        page = phone.new_page()
        page.set_default_timeout(WAIT_MS)
        page.goto(base + "/#token=" + token)
        page.wait_for_selector(".tile[data-still='ready']", timeout=WAIT_MS)
        columns = page.evaluate("getComputedStyle(document.getElementById('grid')).gridTemplateColumns.split(' ').length")
        check(columns == 3, "%d columns on a phone" % columns)
        page.screenshot(path=os.path.join(shots, "phone-grid.png"))
        page.locator(".tile").nth(2).tap()
        page.wait_for_function("!document.getElementById('detail').hidden", timeout=WAIT_MS)
        page.screenshot(path=os.path.join(shots, "phone-detail.png"))
        phase("phone")
        page.keyboard.press("Escape")
        page.wait_for_function("document.getElementById('detail').hidden", timeout=WAIT_MS)
        browser.close()
    print("ok: gallery of %d assets, %d on the first page, %d scroll steps to the end; the still turned Live %.2f s after its movie's upload"
          " (the issue asks for 2 s); screenshots in %s" % (TOTAL, first_page, steps, live_delay, shots))
    return 0


if __name__ == "__main__":
    run(main)
