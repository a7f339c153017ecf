"""Drives Debian's Chromium (headless, through Playwright) over a static page opened from disk
(file://, whose origin is `null`) with `<live-photo asset-id api-base token>` elements: against a
`livepair serve --cors-origins null` the element reads the asset's JSON (its stillImageTime), shows
its `still.jpg` and plays its `motion.mp4` as blob: URLs on hover; an element given the asset's
JSON as its `asset` property uses it as given; with a wrong token it shows a
tile saying HTTP 401; against a server without CORS a tile saying the server did not answer, with
`livephotoerror` each time. Saves screenshots.

Usage: live_photo_asset.py CORS_BASE PLAIN_BASE TOKEN ASSET_ID STILL_TIME SCREENSHOT_DIR
Exit status 0 when every check passed; 1 with the failed check on stderr.
"""
import os
import sys

from playwright.sync_api import sync_playwright

from browser_support import CHROMIUM, WAIT_MS, check, run
from file_server import static_page

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>live-photo from a LivePair server</title>
<style> live-photo { width: 320px; height: 240px; } </style>
%(record_events)s
<script src="%(cors)s/v1/live-photo.js"></script>
</head><body>
<live-photo id="asset" asset-id="%(asset)s" api-base="%(cors)s" token="%(token)s" playback-style="hint"></live-photo>
<live-photo id="wrong-token" asset-id="%(asset)s" api-base="%(cors)s" token="not-a-token"></live-photo>
<live-photo id="closed" asset-id="%(asset)s" api-base="%(plain)s" token="%(token)s"></live-photo>
</body></html>
"""


GIVEN_ASSET = """async ([base, token, id]) => {
    const response = await fetch(base + '/v1/assets/' + encodeURIComponent(id), { headers: { Authorization: 'Bearer ' + token } });
    const asset = await response.json();
    asset.stillImageTime = 0.3;
    const element = document.createElement('live-photo');
    element.id = 'given';
    element.setAttribute('api-base', base);
    element.setAttribute('token', token);
    element.asset = asset;
    document.body.append(element);
}"""


def error_of(page, element_id):
    page.wait_for_function(
        "(id) => window.events.some((e) => e.id === id && e.type === 'livephotoerror')", arg=element_id, timeout=WAIT_MS)
    event = [e for e in page.evaluate("window.events") if e["id"] == element_id and e["type"] == "livephotoerror"][0]
    tile = page.evaluate("(id) => { const e = document.getElementById(id).shadowRoot.querySelector('.error');"
                         " return e.hidden ? null : e.textContent; }", element_id)
    check(tile == event["detail"]["message"], "%s: the tile says %r, the event %r" % (element_id, tile, event["detail"]))
    return tile


def main():
    cors, plain, token, asset, still_time, shots = sys.argv[1:7]
    os.makedirs(shots, exist_ok=True)
    with static_page([], PAGE, {"cors": cors, "plain": plain, "token": token, "asset": asset}) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.set_default_timeout(WAIT_MS)
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(url)
        page.wait_for_function(
            "(() => { const i = document.getElementById('asset').shadowRoot.querySelector('img');"
            " return i.naturalWidth > 0 && i.src.startsWith('blob:'); })()", timeout=WAIT_MS)
        page.wait_for_function("document.getElementById('asset').shadowRoot.querySelector('img').dataset.still === 'ready'", timeout=WAIT_MS)
        stored = page.evaluate("document.getElementById('asset').stillTime")
        check(abs(stored - float(still_time)) < 0.001, "the element's stillTime %s is not the asset's %s" % (stored, still_time))
        unauthorized = error_of(page, "wrong-token")
        check("HTTP 401" in unauthorized, "wrong token: %s" % unauthorized)
        closed = error_of(page, "closed")
        check("did not answer" in closed, "no CORS: %s" % closed)
        page.screenshot(path=os.path.join(shots, "element-asset-still.png"))

        # The asset's JSON given as the `asset` property (as a gallery that listed it would): used
        # as given (its key photo time here made 0.3 s), not fetched again.
        page.evaluate(GIVEN_ASSET, [cors, token, asset])
        page.wait_for_function("document.getElementById('given').shadowRoot.querySelector('img').dataset.still === 'ready'", timeout=WAIT_MS)
        given = page.evaluate("document.getElementById('given').stillTime")
        check(given == 0.3, "the given asset's stillImageTime was not used: %s" % given)

        page.locator("#asset").hover()
        page.wait_for_function(
            "(() => { const v = document.getElementById('asset').shadowRoot.querySelector('video');"
            " return v.src.startsWith('blob:') && !v.paused && v.currentTime > %f; })()" % (float(still_time) + 0.2), timeout=WAIT_MS)
        played = [e for e in page.evaluate("window.events") if e["id"] == "asset" and e["type"] == "livephotoplay"]
        check(len(played) == 1 and played[0]["detail"]["style"] == "hint", "play events: %s" % played)
        page.screenshot(path=os.path.join(shots, "element-asset-playing.png"))
        page.wait_for_function("window.events.some((e) => e.id === 'asset' && e.type === 'livephotoend')", timeout=WAIT_MS)
        check(not [e for e in page.evaluate("window.events") if e["id"] == "asset" and e["type"] == "livephotoerror"], "the asset failed")
        check(not errors, "page errors: %s" % errors)
        browser.close()
    print("ok: asset %s from another origin: still, stillTime %.3f s, motion played; 401 and no-CORS tiles" % (asset, stored))
    return 0


if __name__ == "__main__":
    run(main)
