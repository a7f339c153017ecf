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
        .tile { position: relative; aspect-ratio: 1; overflow: hidden; background: #8882; cursor: pointer;
          touch-action: manipulation; user-select: none; -webkit-user-select: none; }
        .tile img, .tile video { position: absolute; inset: 0; width: 100%; height: 100%; object-fit: cover; }
        .tile video { opacity: 0; transition: opacity .15s, transform .3s; }
        .tile.playing video { opacity: 1; }
        .tile.playing.full video { transform: scale(1.05); }
        .tile .badge { position: absolute; z-index: 1; left: 6px; top: 6px; font-size: 11px; font-weight: 600; color: #fff;
          background: #0007; border-radius: 4px; padding: 1px 5px; pointer-events: none; }
        #detail { position: fixed; inset: 0; background: #000c; display: flex; align-items: center; justify-content: center; }
        #detail[hidden] { display: none; }
        #detail .panel { background: Canvas; color: CanvasText; border-radius: 8px; padding: 1em; max-width: 90vw;
          max-height: 90vh; overflow: auto; position: relative; }
        #detail-media { position: relative; }
        #detail-media img, #detail-media video { max-width: 80vw; max-height: 70vh; display: block; }
        #detail-media video { position: absolute; inset: 0; opacity: 0; }
        #detail-media.playing video { opacity: 1; }
        #close { position: absolute; right: .3em; top: .1em; font-size: 1.5em; background: none; border: 0;
          color: inherit; cursor: pointer; }
        dl { display: grid; grid-template-columns: auto 1fr; gap: .2em 1em; font-size: .9em; }
        dt { opacity: .7; }
        """

    static let bytes = Array(css.utf8)
}
