"""A server that only serves files, for the `<live-photo>` checks: Python's http.server on a free
port of 127.0.0.1, in a thread, with single byte ranges (`Range: bytes=a-b`, `a-`, `-n`: 206 with
Content-Range, as a web server or CDN answers a browser's media requests) and
`Access-Control-Allow-Origin: *`.
"""
import contextlib
import http.server
import os
import re
import shutil
import sys
import tempfile
import threading


class RangeFileHandler(http.server.SimpleHTTPRequestHandler):
    """http.server's file handler with one byte range per request."""

    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        pass

    def end_headers(self):
        # Readable by pages of any origin (a <video crossorigin> drawn into a canvas), as a CDN's files are.
        self.send_header("Access-Control-Allow-Origin", "*")
        super().end_headers()

    def send_head(self):
        match = re.fullmatch(r"bytes=(\d*)-(\d*)", self.headers.get("Range", "").strip())
        path = self.translate_path(self.path)
        if not match or not os.path.isfile(path) or match.group(0) == "bytes=-":
            return super().send_head()
        size = os.path.getsize(path)
        first, last = match.groups()
        if first:
            start, end = int(first), min(int(last), size - 1) if last else size - 1
        else:
            start, end = max(0, size - int(last)), size - 1
        if start >= size or start > end:
            self.send_response(416)
            self.send_header("Content-Range", "bytes */%d" % size)
            self.end_headers()
            return None
        handle = open(path, "rb")
        handle.seek(start)
        self.send_response(206)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Range", "bytes %d-%d/%d" % (start, end, size))
        self.send_header("Content-Length", str(end - start + 1))
        self.send_header("Accept-Ranges", "bytes")
        self.end_headers()
        self._remaining = end - start + 1
        return handle

    def copyfile(self, source, outputfile):
        remaining = getattr(self, "_remaining", None)
        if remaining is None:
            return super().copyfile(source, outputfile)
        while remaining > 0:
            chunk = source.read(min(65536, remaining))
            if not chunk:
                break
            outputfile.write(chunk)
            remaining -= len(chunk)
        self._remaining = None
        return None


class QuietServer(http.server.ThreadingHTTPServer):
    """Does not print a browser's dropped connection (a media request cancelled mid-transfer)."""

    daemon_threads = True

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def serve_directory(directory):
    """Serves `directory` on a free port; returns (server, base URL). Call server.shutdown() to stop."""
    handler = lambda *args, **kwargs: RangeFileHandler(*args, directory=directory, **kwargs)  # noqa: E731
    server = QuietServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, "http://127.0.0.1:%d" % server.server_address[1]


# Put in a page's head as %(record_events)s: the element's events, in order, in window.events.
RECORD_EVENTS = """<script>
  window.events = [];
  for (const name of ['livephotoplay', 'livephotoend', 'livephotoerror']) {
    document.addEventListener(name, (event) => window.events.push({ type: name, id: event.target.id, detail: event.detail }));
  }
</script>"""


@contextlib.contextmanager
def static_page(files, template, values):
    """A page on disk over files that a file-only server serves: `files` are (path, name) pairs
    linked into the served folder, `template` is the page's HTML with `%(name)s` fields filled from
    `values`, `media` (the server's base URL) and `record_events` (RECORD_EVENTS). Yields the
    page's file:// URL; stops the server and removes the files afterwards."""
    work = tempfile.mkdtemp(prefix="live-photo-page-")
    server = None
    try:
        media = os.path.join(work, "media")
        os.makedirs(media)
        for source, name in files:
            os.symlink(os.path.abspath(source), os.path.join(media, name))
        server, media_base = serve_directory(media)
        page_path = os.path.join(work, "page.html")
        with open(page_path, "w") as handle:
            handle.write(template % dict(values, media=media_base, record_events=RECORD_EVENTS))
        yield "file://" + page_path
    finally:
        if server:
            server.shutdown()
        shutil.rmtree(work, ignore_errors=True)
