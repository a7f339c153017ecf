"""Drives Debian's Chromium (headless, through Playwright) against a running `livepair serve`:
drops both halves of a Live Photo on the page's upload box at once (a real `drop` event whose
DataTransfer holds the two files, after `dragenter`/`dragover`), and checks that both are
uploaded (pending, then accepted), that exactly one Live Photo tile appears with its still, and
that the box lost its drag highlight. Saves a screenshot.

Usage: drop_upload.py BASE_URL TOKEN STILL MOVIE SCREENSHOT_DIR
Exit status 0 when every check passed; 1 with the failed check on stderr.
"""
import base64
import os
import sys

from playwright.sync_api import sync_playwright

from browser_support import check, open_page, run, wait_for_empty_library, wait_for_one_live_photo


def file_argument(path, media_type):
    with open(path, "rb") as handle:
        return {"name": os.path.basename(path), "type": media_type, "data": base64.b64encode(handle.read()).decode("ascii")}


MAKE_TRANSFER = """(files) => {
    const transfer = new DataTransfer();
    for (const file of files) {
        const bytes = Uint8Array.from(atob(file.data), (c) => c.charCodeAt(0));
        transfer.items.add(new File([bytes], file.name, {type: file.type}));
    }
    return transfer;
}"""


def main():
    base, token, still, movie, shots = sys.argv[1:6]
    os.makedirs(shots, exist_ok=True)
    with sync_playwright() as playwright:
        browser, page, _ = open_page(playwright, base, token)
        wait_for_empty_library(page)

        files = [file_argument(still, "image/jpeg"), file_argument(movie, "video/quicktime")]
        transfer = page.evaluate_handle(MAKE_TRANSFER, files)
        check(page.evaluate("(t) => t.files.length", transfer) == 2, "the DataTransfer does not hold both files")
        page.dispatch_event("#drop", "dragenter", {"dataTransfer": transfer})
        page.dispatch_event("#drop", "dragover", {"dataTransfer": transfer})
        check("over" in (page.get_attribute("#drop", "class") or ""), "the upload box is not highlighted while dragging")
        page.dispatch_event("#drop", "drop", {"dataTransfer": transfer})
        check("over" not in (page.get_attribute("#drop", "class") or ""), "the upload box stayed highlighted after the drop")

        _, asset_id = wait_for_one_live_photo(page, after="after the drop")
        page.screenshot(path=os.path.join(shots, "dropped.png"))
        browser.close()
    print("ok: dropped asset %s" % asset_id)
    return 0


if __name__ == "__main__":
    run(main)
