/// The page's style sheet (`GET /app.css`).
enum WebStyle {
    static let css = """
        :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
        body { margin: 0; }
        header { display: flex; gap: 1em; align-items: center; padding: .5em 1em; border-bottom: 1px solid #8884; }
        header h1 { font-size: 1.2em; margin: 0; flex: 1; }
        #upload { padding: .5em 1em; }
        #drop { border: 2px dashed #8888; border-radius: 8px; padding: 1em; text-align: center; }
        #drop.over { border-color: #39f; background: #39f2; }
        .pick { color: #39f; cursor: pointer; text-decoration: underline; }
        .pick input { display: none; }
        #uploads { list-style: none; padding: 0; margin: .5em 0 0; font-size: .9em; }
        #uploads li { display: flex; gap: .5em; align-items: center; padding: .1em 0; }
        #uploads progress { width: 8em; }
        #uploads .accepted, #uploads .duplicate { color: #2a2; }
        #uploads .pending { color: #c80; }
        #uploads .rejected, #uploads .failed { color: #d33; }
        #grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(180px, 1fr)); gap: 4px; padding: 4px; }
        #grid h2, #grid h3 { grid-column: 1 / -1; margin: .6em 4px .1em; }
        #grid h2 { font-size: 1.15em; }
        #grid h3 { font-size: .9em; font-weight: 500; opacity: .75; margin-top: .2em; }
        #more { grid-column: 1 / -1; height: 1px; }
        .tile { position: relative; aspect-ratio: 1; overflow: hidden; background: #8882; cursor: pointer;
          touch-action: manipulation; user-select: none; -webkit-user-select: none; }
        .tile:focus-visible { outline: 3px solid #39f; outline-offset: -3px; }
        .tile img, .tile live-photo { position: absolute; inset: 0; width: 100%; height: 100%; object-fit: cover; }
        .tile live-photo { --live-photo-background: transparent; }
        .tile .badge { position: absolute; left: 6px; top: 6px; font-size: 11px; font-weight: 600; color: #fff;
          background: #0007; border-radius: 4px; padding: 1px 5px; pointer-events: none; }
        .tile .badge.duration { left: auto; right: 6px; top: auto; bottom: 6px; }
        .tile.failed { display: flex; align-items: center; justify-content: center; background: #d332; cursor: default; }
        .failure { margin: 0; padding: .6em; font-size: .8em; color: #b22; text-align: center; overflow-wrap: anywhere; }
        /* The grid is one stacking context under the detail view: nothing of it can be drawn over the dialog. */
        main#grid { position: relative; z-index: 0; isolation: isolate; }
        #detail { position: fixed; inset: 0; z-index: 10; background: #000c; display: flex; align-items: center; justify-content: center; }
        #detail[hidden] { display: none; }
        #detail .panel { background: Canvas; color: CanvasText; border-radius: 8px; padding: 1em; max-width: 90vw;
          max-height: 90vh; overflow: auto; position: relative; }
        #detail-media { position: relative; min-width: 200px; min-height: 120px; }
        #detail-media img, #detail-media video { max-width: 80vw; max-height: 60vh; display: block; }
        #detail-media live-photo { display: block; width: min(80vw, 900px); height: 60vh; --live-photo-object-fit: contain;
          --live-photo-background: transparent; }
        #detail-media .play { margin-top: .4em; }
        .steps, .actions { display: flex; gap: .5em; margin: .5em 0; }
        .steps button:last-child { margin-left: auto; }
        #close { position: absolute; right: .3em; top: .1em; font-size: 1.5em; background: none; border: 0;
          color: inherit; cursor: pointer; }
        @media (max-width: 600px) {
          #grid { grid-template-columns: repeat(3, 1fr); gap: 2px; padding: 2px; }
          #detail .panel { max-width: 100vw; max-height: 100vh; border-radius: 0; padding: .5em; }
          #detail-media img, #detail-media video, #detail-media live-photo { max-width: 96vw; }
        }
        dl { display: grid; grid-template-columns: auto 1fr; gap: .2em 1em; font-size: .9em; }
        dt { opacity: .7; }
        """

    static let bytes = Array(css.utf8)
}
