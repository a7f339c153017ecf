"""Loop and Bounce in Debian's Chromium (headless, through Playwright): the movies `livepair edit
--variation loop|bounce` rendered, and the original, served by a server that only serves files to
a static page opened from disk. Checks, with screenshots:

- each derivative plays in a `<video>`: no media error, `currentTime` advances, the duration
  Chromium reads is ffprobe's; the Loop movie is shorter than the original (its end crossfaded into
  its start) and wraps around with `loop`; the Bounce movie lasts about twice the original and goes
  forward then backward (its frame at t is the frame at duration - t, and not the one at t + 0.4 s);
- `<live-photo playback-variation="loop">` over the Loop movie plays it over and over while hovered;
  `<live-photo playback-variation="bounce">` over the original steps it backward after its end.

Usage: edit_variations.py SCRIPT_URL ORIGINAL_MOVIE LOOP_MOVIE BOUNCE_MOVIE STILL SCREENSHOT_DIR
Exit status 0 when every check passed; 1 with the failed check on stderr.
"""
import json
import os
import subprocess
import sys

from playwright.sync_api import sync_playwright

from browser_support import CHROMIUM, WAIT_MS, check, run
from file_server import static_page

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Loop and Bounce</title>
<style> video, live-photo { width: 288px; height: 216px; } </style>
%(record_events)s
<script src="%(script)s"></script>
</head><body>
<video id="loop" src="%(media)s/loop.mov" muted playsinline loop preload="auto"></video>
<video id="bounce" src="%(media)s/bounce.mov" muted playsinline preload="auto" crossorigin="anonymous"></video>
<video id="original" src="%(media)s/original.mov" muted playsinline preload="auto"></video>
<live-photo id="looping" photo-src="%(media)s/still.jpg" video-src="%(media)s/loop.mov" playback-variation="loop"></live-photo>
<live-photo id="bouncing" photo-src="%(media)s/still.jpg" video-src="%(media)s/original.mov" playback-variation="bounce"></live-photo>
</body></html>
"""

# The mean absolute difference of two frames of a <video> (seeked to each time, drawn at 64x48).
FRAME_DIFFERENCE = """async ([id, first, second]) => {
    const video = document.getElementById(id);
    video.pause();
    const canvas = document.createElement('canvas');
    canvas.width = 64; canvas.height = 48;
    const context = canvas.getContext('2d', { willReadFrequently: true });
    const grab = async (time) => {
        await new Promise((resolve) => { video.addEventListener('seeked', resolve, { once: true }); video.currentTime = time; });
        context.drawImage(video, 0, 0, 64, 48);
        return context.getImageData(0, 0, 64, 48).data;
    };
    const a = await grab(first), b = await grab(second);
    let sum = 0;
    for (let i = 0; i < a.length; i += 4) sum += Math.abs(a[i] - b[i]) + Math.abs(a[i + 1] - b[i + 1]) + Math.abs(a[i + 2] - b[i + 2]);
    return sum / (64 * 48 * 3);
}"""


def ffprobe_duration(path):
    output = subprocess.run(
        ["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=duration", "-of", "json", path],
        check=True, capture_output=True, text=True).stdout
    return float(json.loads(output)["streams"][0]["duration"])


def video_state(page, selector):
    return page.evaluate(
        "(selector) => { const v = eval(selector);"
        " return { time: v.currentTime, duration: v.duration, paused: v.paused, error: v.error ? v.error.code : null,"
        " ready: v.readyState, ended: v.ended }; }", selector)


def element_video(element_id):
    return "document.getElementById('%s').shadowRoot.querySelector('video')" % element_id


def wait_for_turn(page, selector, what, direction, timeout=WAIT_MS):
    """Waits until the video's currentTime moves the other way than `direction` (+1: it had been
    increasing and now decreases, a wrap or a bounce; -1: the reverse) while it is still playing."""
    page.wait_for_function(
        """([selector, direction]) => {
            const v = eval(selector);
            const state = window.turns[selector] || (window.turns[selector] = { last: v.currentTime, seen: false });
            const delta = v.currentTime - state.last;
            state.last = v.currentTime;
            if (delta * direction > 0.01) state.seen = true;
            return state.seen && delta * direction < -0.01;
        }""", arg=[selector, direction], polling="raf", timeout=timeout)


def main():
    script, original, loop, bounce, still, shots = sys.argv[1:7]
    os.makedirs(shots, exist_ok=True)
    durations = {"original": ffprobe_duration(original), "loop": ffprobe_duration(loop), "bounce": ffprobe_duration(bounce)}
    files = [(original, "original.mov"), (loop, "loop.mov"), (bounce, "bounce.mov"), (still, "still.jpg")]
    with static_page(files, PAGE, {"script": script}) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.set_default_timeout(WAIT_MS)
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(url)
        page.evaluate("window.turns = {}")
        page.wait_for_function("['loop', 'bounce', 'original'].every((id) => document.getElementById(id).readyState >= 1)", timeout=WAIT_MS)

        # Durations as Chromium reads them: ffprobe's; Loop shorter, Bounce about twice the original.
        for name in ["loop", "bounce", "original"]:
            state = video_state(page, "document.getElementById('%s')" % name)
            check(state["error"] is None, "%s: media error %s" % (name, state["error"]))
            check(abs(state["duration"] - durations[name]) < 0.05,
                  "%s: Chromium reads %.3f s, ffprobe %.3f s" % (name, state["duration"], durations[name]))
        check(durations["loop"] < durations["original"], "the Loop movie is not shorter: %s" % durations)
        frame = durations["original"] / 10
        check(abs(durations["bounce"] - 2 * durations["original"]) < frame,
              "Bounce lasts %.3f s, not about twice %.3f s" % (durations["bounce"], durations["original"]))

        # Both play: currentTime advances; the Loop wraps around without ending.
        page.evaluate("document.getElementById('loop').play(); document.getElementById('bounce').play()")
        wait_for_turn(page, "document.getElementById('loop')", "loop", +1)
        loop_state = video_state(page, "document.getElementById('loop')")
        check(not loop_state["paused"] and not loop_state["ended"] and loop_state["error"] is None, "loop: %s" % loop_state)
        page.wait_for_function("document.getElementById('bounce').currentTime > %f" % (durations["original"] + 0.1), timeout=WAIT_MS)
        page.screenshot(path=os.path.join(shots, "variations-playing.png"))
        page.wait_for_function("document.getElementById('bounce').ended", timeout=WAIT_MS)
        check(video_state(page, "document.getElementById('bounce')")["error"] is None, "bounce: a media error")

        # Bounce goes back: its frame at t is its frame at duration - t, not the one 0.4 s later.
        bounce_duration = durations["bounce"]
        mirrored = page.evaluate(FRAME_DIFFERENCE, ["bounce", 0.3, bounce_duration - 0.3])
        moved = page.evaluate(FRAME_DIFFERENCE, ["bounce", 0.3, 0.7])
        check(mirrored < moved / 3, "Bounce frames at 0.3 s and %.2f s differ by %.2f, 0.3 s and 0.7 s by %.2f"
              % (bounce_duration - 0.3, mirrored, moved))

        # <live-photo> with playback-variation: loop wraps while hovered, bounce steps back.
        page.locator("#looping").hover()
        wait_for_turn(page, element_video("looping"), "looping", +1)
        check(page.evaluate("document.getElementById('looping').playing"), "the looping element stopped")
        page.screenshot(path=os.path.join(shots, "variations-element-loop.png"))
        page.mouse.move(1270, 790)
        page.wait_for_function("window.events.some((e) => e.id === 'looping' && e.type === 'livephotoend')", timeout=WAIT_MS)
        page.locator("#bouncing").hover()
        wait_for_turn(page, element_video("bouncing"), "bouncing", +1)
        page.screenshot(path=os.path.join(shots, "variations-element-bounce.png"))
        wait_for_turn(page, element_video("bouncing"), "bouncing", -1)
        check(page.evaluate("document.getElementById('bouncing').playing"), "the bouncing element stopped")
        page.mouse.move(1270, 790)
        page.wait_for_function("window.events.some((e) => e.id === 'bouncing' && e.type === 'livephotoend')", timeout=WAIT_MS)
        ends = [e["detail"]["reason"] for e in page.evaluate("window.events") if e["type"] == "livephotoend"]
        check(ends == ["leave", "leave"], "Loop and Bounce elements ended by %s, not by the leave" % ends)
        check(not [e for e in page.evaluate("window.events") if e["type"] == "livephotoerror"], "a livephotoerror")
        check(not errors, "page errors: %s" % errors)
        browser.close()
    print("ok: Loop %.3f s and Bounce %.3f s (original %.3f s) play in Chromium; Bounce mirrored frame difference %.2f vs %.2f"
          % (durations["loop"], durations["bounce"], durations["original"], mirrored, moved))
    return 0


if __name__ == "__main__":
    run(main)
