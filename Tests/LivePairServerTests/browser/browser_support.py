"""What the browser checks of `livepair serve`'s page share: Debian's Chromium launched headless
through Playwright, the page opened with the token in the URL fragment, the one Live Photo tile an
upload makes (a `<live-photo>` element in a `.tile`), and the exit status and message the Swift
test (BrowserPageTests) reads.
"""
import sys

CHROMIUM = "/usr/bin/chromium"
VIEWPORT = {"width": 900, "height": 700}
# How long one wait may take before the check gives up: a guard against a hang, never a bound on
# speed (on a loaded two-core machine a step of Chromium's took over 20 s). Every wait and, as the
# pages' default, every action uses it.
WAIT_MS = 600_000


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def open_page(playwright, base, token, extra_args=()):
    """Launches Chromium and opens the page at `base` with `token` in the URL fragment; returns
    (browser, page, messages), messages collecting the page's console lines and errors."""
    browser = playwright.chromium.launch(
        executable_path=CHROMIUM, headless=True, args=["--no-sandbox", *extra_args])
    # The page forbids eval (script-src 'self'); Playwright's wait_for_function needs it.
    page = browser.new_page(viewport=VIEWPORT, bypass_csp=True)
    page.set_default_timeout(WAIT_MS)
    messages = []
    page.on("console", lambda message: messages.append(message.text))
    page.on("pageerror", lambda error: messages.append("page error: " + str(error)))
    page.goto(base + "/#token=" + token)
    return browser, page, messages


def wait_for_empty_library(page):
    """Waits until the page has listed the (empty) library."""
    page.wait_for_function("document.getElementById('status').textContent.includes('0 items')", timeout=WAIT_MS)


def wait_for_one_live_photo(page, after):
    """Waits until both halves were uploaded (pending, then accepted) and exactly one Live Photo
    tile shows its still; returns (tile, asset id). `after` names the upload in failure messages."""
    page.wait_for_selector("#uploads li[data-outcome='accepted']", timeout=WAIT_MS)
    outcomes = page.eval_on_selector_all("#uploads li", "rows => rows.map(row => row.dataset.outcome)")
    check(outcomes == ["pending", "accepted"], "upload outcomes %s: %s" % (after, outcomes))
    tile = page.locator(".tile[data-live-photo][data-asset-id]")
    tile.wait_for(timeout=WAIT_MS)
    check(page.locator(".tile").count() == 1, "expected exactly one tile, got %d" % page.locator(".tile").count())
    page.wait_for_function(
        "(() => { const tile = document.querySelector('.tile'); const player = tile.querySelector('live-photo');"
        " const image = player ? player.shadowRoot.querySelector('img') : tile.querySelector('img');"
        " return tile.dataset.still === 'ready' && image.complete && image.naturalWidth > 0; })()",
        timeout=WAIT_MS)
    asset_id = tile.get_attribute("data-asset-id")
    check(bool(asset_id), "the tile has no asset id")
    return tile, asset_id


def run(main):
    """Exits with main()'s status; on any failure prints it on stderr (the Swift test shows it) and exits 1."""
    try:
        sys.exit(main())
    except Exception as error:
        print("FAILED: %s: %s" % (type(error).__name__, error), file=sys.stderr)
        sys.exit(1)
