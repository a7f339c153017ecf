"""Drives Debian's Chromium (headless, through Playwright) over a static HTML page opened from disk
(file://) that embeds `<live-photo>` elements: the element's script from a running `livepair serve`
(`GET /v1/live-photo.js`), the media (two JPEG + H.264 Live Photo pairs) from a server that only
serves files (http.server with byte ranges, on a free port). Checks, with screenshots of each state:

- desktop 1280x800, mouse: hover plays ("full" from the start, "hint" from the key photo, muted),
  the video's currentTime advances, the still comes back on leave and at the end, `livephotoplay`
  and `livephotoend` (reason leave / ended) fire; LIVE badge, role and label;
- a video alone is shown at its `still-time`; a photo that fails shows a tile and `livephotoerror`;
- `prefers-reduced-motion: reduce`: hover does not play, a key does;
- phone 390x844 with touch: press-and-hold plays, release returns to the still;
- keyboard only: Tab focuses (a visible focus ring), Space plays and Space again stops, Enter plays
  to the end.

Usage: live_photo_element.py SCRIPT_URL STILL MOVIE STILL_TIME STILL2 MOVIE2 STILL_TIME2 SCREENSHOT_DIR
(the first pair plays "full", the second "hint": give the longer movie first).
Exit status 0 when every check passed; 1 with the failed check on stderr.
"""
import os
import sys

from playwright.sync_api import sync_playwright

from browser_support import CHROMIUM, WAIT_MS, check, run
from file_server import static_page

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>live-photo on a static page</title>
<style>
  body { margin: 16px; font: 14px system-ui; }
  .row { display: flex; flex-wrap: wrap; gap: 16px; }
  live-photo { width: 320px; height: 240px; }
  @media (max-width: 500px) { live-photo { width: 100%%; height: 260px; } }
</style>
%(record_events)s
<script src="%(script)s"></script>
</head><body>
<h1>Two Live Photos</h1>
<div class="row">
  <live-photo id="full" photo-src="%(media)s/one.jpg" video-src="%(media)s/one.mov" still-time="%(time1)s" label="A Ferris wheel at night"></live-photo>
  <live-photo id="hint" photo-src="%(media)s/two.jpg" video-src="%(media)s/two.mov" still-time="%(time2)s" playback-style="hint"></live-photo>
  <live-photo id="movie" video-src="%(media)s/one.mov" still-time="%(time1)s" label="The movie alone"></live-photo>
  <live-photo id="broken" photo-src="%(media)s/missing.jpg" video-src="%(media)s/two.mov"></live-photo>
</div>
</body></html>
"""

STATE = """(id) => {
    const element = document.getElementById(id);
    const root = element.shadowRoot;
    const video = root.querySelector('video');
    const image = root.querySelector('img');
    const frame = root.querySelector('.frame');
    return { playing: element.playing, shown: frame.classList.contains('playing'), paused: video.paused,
             time: video.currentTime, duration: video.duration, muted: video.muted, videoOpacity: getComputedStyle(video).opacity,
             photoWidth: image.naturalWidth, error: root.querySelector('.error').hidden ? null : root.querySelector('.error').textContent,
             mediaError: video.error ? video.error.code : null };
}"""


def state(page, element_id):
    return page.evaluate(STATE, element_id)


def events(page, element_id=None):
    return [event for event in page.evaluate("window.events") if element_id is None or event["id"] == element_id]


def wait_for_time(page, element_id, seconds, timeout=WAIT_MS):
    page.wait_for_function(
        "([id, t]) => { const v = document.getElementById(id).shadowRoot.querySelector('video');"
        " return !v.paused && v.currentTime > t; }", arg=[element_id, seconds], timeout=timeout)


def wait_for_event(page, element_id, kind, count=1, timeout=WAIT_MS):
    page.wait_for_function(
        "([id, kind, n]) => window.events.filter((e) => e.id === id && e.type === kind).length >= n",
        arg=[element_id, kind, count], timeout=timeout)
    return [event for event in events(page, element_id) if event["type"] == kind][count - 1]


def slow_down(page, element_id, rate=0.25):
    page.evaluate("([id, rate]) => { document.getElementById(id).shadowRoot.querySelector('video').playbackRate = rate; }",
                  [element_id, rate])


def wait_for_stills(page):
    page.wait_for_function(
        "['full', 'hint'].every((id) => document.getElementById(id).shadowRoot.querySelector('img').naturalWidth > 0)",
        timeout=WAIT_MS)


def check_returned_to_still(page, element_id, what):
    page.wait_for_function(
        "(id) => { const root = document.getElementById(id).shadowRoot;"
        " return !root.querySelector('.frame').classList.contains('playing') && root.querySelector('video').paused"
        " && getComputedStyle(root.querySelector('video')).opacity === '0'; }", arg=element_id, timeout=WAIT_MS)
    now = state(page, element_id)
    check(not now["playing"], "%s: %s still says playing" % (what, element_id))


def open_page(browser, url, **context_options):
    context = browser.new_context(**context_options)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    page.wait_for_function("customElements.get('live-photo') !== undefined", timeout=WAIT_MS)
    return context, page, errors


def desktop(page, errors, shots):
    """Mouse at 1280x800: hover, leave, the end of the motion, the hint, the video alone, the error tile."""
    wait_for_stills(page)
    full = page.locator("#full")
    check(full.get_attribute("role") == "img" and full.get_attribute("aria-label") == "A Ferris wheel at night",
          "role/label: %s %s" % (full.get_attribute("role"), full.get_attribute("aria-label")))
    check(page.locator("#hint").get_attribute("aria-label") == "Live Photo", "the default label is not 'Live Photo'")
    check(full.get_attribute("tabindex") == "0", "the element is not focusable")
    badge = page.evaluate("document.getElementById('full').shadowRoot.querySelector('[part=badge]')")
    check(page.evaluate("getComputedStyle(document.getElementById('full').shadowRoot.querySelector('[part=badge]')).display") != "none"
          and page.evaluate("document.getElementById('full').shadowRoot.querySelector('[part=badge]').textContent.trim()") == "LIVE",
          "no visible LIVE badge (%s)" % badge)
    page.screenshot(path=os.path.join(shots, "element-desktop-still.png"))

    # A video alone is shown at its still-time (the key photo); a missing photo shows a tile.
    page.wait_for_function("Math.abs(document.getElementById('movie').shadowRoot.querySelector('video').currentTime - %s) < 0.05"
                           % page.get_attribute("#movie", "still-time"), timeout=WAIT_MS)
    error = wait_for_event(page, "broken", "livephotoerror")
    check("photo could not be loaded" in error["detail"]["message"], "the error event says: %s" % error["detail"])
    broken = state(page, "broken")
    check(broken["error"] and "photo could not be loaded" in broken["error"], "no error tile: %s" % broken)
    check(page.evaluate("getComputedStyle(document.getElementById('broken').shadowRoot.querySelector('img')).visibility") == "hidden",
          "the broken photo is still drawn")

    # Hover: "full" plays from the start; leave: back to the still. (Slowed down, so that a loaded
    # machine cannot reach the end of the motion before the pointer leaves.)
    slow_down(page, "full")
    page.mouse.move(1270, 790)
    full.hover()
    played = wait_for_event(page, "full", "livephotoplay")
    check(played["detail"]["style"] == "full" and played["detail"]["trigger"] == "hover", "play event: %s" % played)
    wait_for_time(page, "full", 0.3)
    playing = state(page, "full")
    check(playing["shown"] and playing["videoOpacity"] == "1", "the motion is not shown while playing: %s" % playing)
    page.screenshot(path=os.path.join(shots, "element-desktop-playing.png"))
    page.mouse.move(1270, 790)
    ended = wait_for_event(page, "full", "livephotoend")
    check(ended["detail"]["reason"] == "leave", "end on leave: %s" % ended)
    check_returned_to_still(page, "full", "after leaving")
    page.screenshot(path=os.path.join(shots, "element-desktop-after-leave.png"))

    # Hover and stay: at the end of the motion the still comes back by itself.
    slow_down(page, "full", rate=1)
    full.hover()
    wait_for_event(page, "full", "livephotoplay", count=2)
    ended = wait_for_event(page, "full", "livephotoend", count=2)
    check(ended["detail"]["reason"] == "ended", "end of the motion: %s" % ended)
    check_returned_to_still(page, "full", "at the end")
    final = state(page, "full")
    check(final["time"] >= final["duration"] - 0.1, "full did not play to the end: %s" % final)

    # "hint": muted, from the key photo on.
    key = float(page.get_attribute("#hint", "still-time"))
    page.locator("#hint").hover()
    played = wait_for_event(page, "hint", "livephotoplay")
    check(played["detail"]["style"] == "hint", "hint play event: %s" % played)
    hint = state(page, "hint")
    check(hint["muted"], "hint plays with sound")
    check(hint["time"] >= key - 0.05, "hint started at %.3f s, before the key photo %.3f s" % (hint["time"], key))
    wait_for_time(page, "hint", key + 0.3)
    page.screenshot(path=os.path.join(shots, "element-desktop-hint.png"))
    ended = wait_for_event(page, "hint", "livephotoend")
    check(ended["detail"]["reason"] == "ended", "hint end: %s" % ended)
    page.mouse.move(1270, 790)
    check(not errors, "page errors: %s" % errors)
    return "full %.2f s, hint from %.2f s" % (final["duration"], hint["time"])


def reduced_motion(page, errors, shots):
    """Hover does not play under `prefers-reduced-motion: reduce`; a key does."""
    page.emulate_media(reduced_motion="reduce")
    page.evaluate("window.events = []")
    page.evaluate("window.entered = 0; document.getElementById('full').addEventListener('pointerenter', () => { window.entered += 1; })")
    page.mouse.move(1270, 790)
    page.locator("#full").hover()
    page.wait_for_function("window.entered === 1", timeout=WAIT_MS)
    page.wait_for_timeout(1000)
    check(not events(page, "full"), "hover played under reduced motion: %s" % events(page, "full"))
    check(state(page, "full")["paused"], "the video plays under reduced motion")
    page.screenshot(path=os.path.join(shots, "element-reduced-motion-hover.png"))
    page.focus("#full")
    page.keyboard.press("Space")
    played = wait_for_event(page, "full", "livephotoplay")
    check(played["detail"]["trigger"] == "key", "key play under reduced motion: %s" % played)
    wait_for_time(page, "full", 0.2)
    check(not errors, "page errors: %s" % errors)


def phone(browser, url, shots):
    context, page, errors = open_page(
        browser, url, viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True)
    wait_for_stills(page)
    box = page.locator("#full").bounding_box()
    check(box["width"] > 300, "the element is not laid out for the phone: %s" % box)
    slow_down(page, "full")
    session = context.new_cdp_session(page)
    point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
    session.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    played = wait_for_event(page, "full", "livephotoplay")
    check(played["detail"]["trigger"] == "press", "press play event: %s" % played)
    wait_for_time(page, "full", 0.3)
    page.screenshot(path=os.path.join(shots, "element-phone-pressed.png"))
    session.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    ended = wait_for_event(page, "full", "livephotoend")
    check(ended["detail"]["reason"] == "leave", "end on release: %s" % ended)
    check_returned_to_still(page, "full", "after the release")
    page.screenshot(path=os.path.join(shots, "element-phone-released.png"))
    check(not errors, "page errors: %s" % errors)
    context.close()


def keyboard(page, errors, shots):
    """Keyboard only, from the top of the page (nothing focused): Tab, Space, Space, Tab, Enter."""
    page.evaluate("window.events = []; document.activeElement.blur()")
    page.keyboard.press("Tab")
    check(page.evaluate("document.activeElement.id") == "full", "Tab did not focus the first element")
    ring = page.evaluate("(() => { const s = getComputedStyle(document.activeElement); return [s.outlineStyle, s.outlineWidth]; })()")
    check(ring[0] == "solid" and ring[1] != "0px", "no visible focus ring: %s" % ring)
    slow_down(page, "full")
    page.keyboard.press("Space")
    played = wait_for_event(page, "full", "livephotoplay")
    check(played["detail"]["trigger"] == "key", "Space play event: %s" % played)
    wait_for_time(page, "full", 0.1)
    page.screenshot(path=os.path.join(shots, "element-keyboard-playing.png"))
    page.keyboard.press("Space")
    ended = wait_for_event(page, "full", "livephotoend")
    check(ended["detail"]["reason"] == "stop", "Space again: %s" % ended)
    check_returned_to_still(page, "full", "after Space again")
    page.screenshot(path=os.path.join(shots, "element-keyboard-stopped.png"))
    slow_down(page, "full", rate=1)

    page.keyboard.press("Tab")
    check(page.evaluate("document.activeElement.id") == "hint", "Tab did not move to the second element")
    page.keyboard.press("Enter")
    played = wait_for_event(page, "hint", "livephotoplay")
    check(played["detail"]["trigger"] == "key", "Enter play event: %s" % played)
    ended = wait_for_event(page, "hint", "livephotoend")
    check(ended["detail"]["reason"] == "ended", "Enter, to the end: %s" % ended)
    check_returned_to_still(page, "hint", "after the end")
    check(not errors, "page errors: %s" % errors)


def main():
    script, still, movie, time1, still2, movie2, time2, shots = sys.argv[1:9]
    os.makedirs(shots, exist_ok=True)
    files = [(still, "one.jpg"), (movie, "one.mov"), (still2, "two.jpg"), (movie2, "two.mov")]
    with static_page(files, PAGE, {"script": script, "time1": time1, "time2": time2}) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        context, page, errors = open_page(browser, url, viewport={"width": 1280, "height": 800})
        figures = desktop(page, errors, shots)
        keyboard(page, errors, shots)
        reduced_motion(page, errors, shots)
        context.close()
        phone(browser, url, shots)
        browser.close()
    print("ok: element on file:// (%s); screenshots in %s" % (figures, shots))
    return 0


if __name__ == "__main__":
    run(main)
