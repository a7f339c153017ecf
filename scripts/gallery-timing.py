"""The gallery's timings in Chromium, for `livepair-bench serve --only gallery`: opens `livepair
serve`'s page at 1280x800 (headless Debian Chromium through Playwright, a fresh profile: nothing
cached) and prints one JSON line:

- firstScreen: milliseconds from the navigation's start until every tile on the first screen shows
  its still, decoded (data-still="ready"), at the next animation frame;
- hover: for HOVERS tiles of the first screen, once the tile's `<live-photo>` has its motion (the
  page fetches it behind every still near the screen), milliseconds from the pointer entering the
  tile to the first frame of its motion presented (requestVideoFrameCallback).

Usage: gallery-timing.py BASE_URL TOKEN [HOVERS]
"""
import json
import sys

from playwright.sync_api import sync_playwright

FIRST_SCREEN = """() => new Promise((resolve) => {
  const visible = (tile) => { const box = tile.getBoundingClientRect(); return box.bottom > 0 && box.top < innerHeight; };
  const check = () => {
    const tiles = [...document.querySelectorAll('.tile')].filter(visible);
    if (tiles.length > 0 && tiles.every((tile) => tile.dataset.still === 'ready' || tile.dataset.still === 'failed')) {
      requestAnimationFrame(() => resolve({ ms: performance.now(), tiles: tiles.length,
        failed: tiles.filter((tile) => tile.dataset.still === 'failed').length }));
    } else requestAnimationFrame(check);
  };
  check();
})"""

ARM = """(index) => new Promise((resolve, reject) => {
  const tile = document.querySelectorAll('.tile[data-live-photo]')[index];
  const video = tile.querySelector('live-photo').shadowRoot.querySelector('video');
  let entered = null;
  tile.addEventListener('pointerenter', () => { entered = performance.now(); }, { once: true });
  video.requestVideoFrameCallback(() => resolve(performance.now() - entered));
  window.__armed = true;
  setTimeout(() => reject(new Error('no frame within 60 s')), 60000);
})"""


def main():
    base, token = sys.argv[1:3]
    hovers = int(sys.argv[3]) if len(sys.argv) > 3 else 8
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 800}, bypass_csp=True)
        page.goto(base + "/#token=" + token, wait_until="commit")
        first = page.evaluate(FIRST_SCREEN)
        boxes = page.evaluate("""() => [...document.querySelectorAll('.tile[data-live-photo]')].map((tile) => {
            const box = tile.getBoundingClientRect(); return [box.left + box.width / 2, box.top + box.height / 2, box.bottom < innerHeight]; })""")
        times = []
        for index, (x, y, whole) in enumerate(boxes):
            if len(times) == hovers:
                break
            if not whole:
                continue
            # The tile's <live-photo> plays once it has its motion (queued behind the stills).
            page.wait_for_function(
                "(index) => document.querySelectorAll('.tile[data-live-photo]')[index].querySelector('live-photo[video-src]') !== null",
                arg=index, timeout=600000)
            page.mouse.move(1275, 795)
            page.wait_for_timeout(200)
            promise = page.evaluate_handle("(index) => { window.__hover = (%s)(index); }" % ARM, index)
            promise.dispose()
            page.mouse.move(x, y)
            times.append(page.evaluate("() => window.__hover"))
        browser.close()
    print(json.dumps({"firstScreen": first["ms"], "tiles": first["tiles"], "failed": first["failed"], "hover": times}))


if __name__ == "__main__":
    main()
