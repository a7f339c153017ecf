/// The web page at `GET /`: the owner's whole library in date-taken order as a grid of tiles under
/// month and day headings, Live Photos playing their motion on hover (or press, on touch screens),
/// a detail view and an upload box. Live Photo tiles are `<live-photo>` elements (`/v1/live-photo.js`). Plain HTML, CSS and a
/// little JavaScript shipped in the binary: no CDN, no npm, no build step. The token comes in the
/// URL fragment (`/#token=…`, which never reaches a server or its logs), is kept in the page's
/// session storage and sent as a bearer header; images and movies are fetched with it and shown
/// through blob URLs.
enum WebPage {
    /// The document.
    static let html = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>LivePair</title>
        <link rel="stylesheet" href="/app.css">
        <script src="/v1/live-photo.js" defer></script>
        <script src="/app.js" defer></script>
        </head>
        <body>
        <header>
          <h1>LivePair</h1>
          <label>Playback <select id="style">
            <option value="hint">hint</option>
            <option value="full">full</option>
          </select></label>
          <span id="status" role="status"></span>
        </header>
        <section id="upload" aria-label="Upload">
          <div id="drop">Drop photos and movies here, or <label class="pick">choose files
            <input id="files" type="file" multiple accept="image/*,video/*,.heic,.mov"></label></div>
          <ul id="uploads"></ul>
        </section>
        <main id="grid" aria-label="Library" data-complete="false"></main>
        <div id="detail" hidden role="dialog" aria-modal="true" aria-label="Photo">
          <div class="panel">
            <button id="close" aria-label="Close (Escape)">×</button>
            <div id="detail-media"></div>
            <nav class="steps">
              <button id="previous" aria-label="Previous (←)">‹ Previous</button>
              <button id="next" aria-label="Next (→)">Next ›</button>
            </nav>
            <dl id="detail-info"></dl>
            <div class="actions">
              <button id="download">Download original</button>
              <button id="original" hidden>Show original</button>
              <button id="delete">Delete</button>
            </div>
          </div>
        </div>
        </body>
        </html>
        """

    /// The document's bytes.
    static let bytes = Array(html.utf8)

    /// What the page may load: its own scripts and style, images and movies from blob URLs. Inline
    /// style is allowed for the `<live-photo>` element's shadow-root `<style>` (the page writes no
    /// HTML from data: every text is set as `textContent`).
    static let contentSecurityPolicy =
        "default-src 'self'; img-src 'self' blob:; media-src 'self' blob:; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        + "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'"
}
