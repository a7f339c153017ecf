/// The page's script (`GET /app.js`): token handling; the library in date-taken order, a page at
/// a time as the grid scrolls (an IntersectionObserver on the sentinel after the last tile), with
/// month and day headings in the viewer's time zone; Live Photo tiles that play their motion in the
/// style of LivePhotosKit JS ("hint": muted motion while hovered or pressed, back to the still at
/// the end or on leave; "full": with sound and a slight zoom); plain videos with their duration; a
/// tile that says why a derivative failed; the detail view (Escape, backdrop, arrows); the uploads;
/// and the change feed as Server-Sent Events, so other clients' uploads and completed Live Photos
/// appear without a reload.
enum WebScript {
    static let javascript = #"""
        'use strict';
        (() => {
          const fragment = new URLSearchParams(location.hash.slice(1));
          if (fragment.get('token')) {
            sessionStorage.setItem('livepair.token', fragment.get('token'));
            history.replaceState(null, '', location.pathname + location.search);
          }
          const token = sessionStorage.getItem('livepair.token');
          const $ = (id) => document.getElementById(id);
          const status = (text) => { $('status').textContent = text; };
          const auth = () => ({ Authorization: 'Bearer ' + token });
          const blobs = new Map();
          const pageSize = 60;
          let playbackStyle = 'hint';
          $('style').addEventListener('change', (event) => {
            playbackStyle = event.target.value;
            for (const player of document.querySelectorAll('#grid live-photo')) player.setAttribute('playback-style', playbackStyle);
          });

          // The library as loaded so far, in date-taken order (newest first), and where the next page starts.
          const assets = [];
          const byId = new Map();
          const tiles = new Map();
          let total = 0;
          let cursor = null;
          let complete = false;
          let loading = null;
          let openIndex = -1;

          async function api(path, options = {}) {
            const response = await fetch(path, { ...options, headers: { ...auth(), ...(options.headers || {}) } });
            if (response.status === 401) { status('The token is missing or wrong: open /#token=YOUR_TOKEN'); }
            return response;
          }

          // A derivative as a blob URL; a failure carries the server's message (a 422's cause).
          async function blobURL(path, type) {
            if (blobs.has(path)) return blobs.get(path);
            const promise = api(path).then(async (response) => {
              if (!response.ok) {
                let message = response.status + ' ' + response.statusText;
                try { message = (await response.json()).error.message || message; } catch (error) { /* not JSON */ }
                throw new Error(message);
              }
              return response.blob();
            }).then((blob) => URL.createObjectURL(type ? new Blob([blob], { type }) : blob));
            blobs.set(path, promise);
            promise.catch(() => blobs.delete(path));
            return promise;
          }

          const dateTaken = (asset) => new Date(asset.dateTaken || asset.creationDate || asset.addedDate);
          const dayKey = (date) => date.getFullYear() + '-' + (date.getMonth() + 1) + '-' + date.getDate();
          const monthKey = (date) => date.getFullYear() + '-' + (date.getMonth() + 1);
          const monthFormat = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'long' });
          const dayFormat = new Intl.DateTimeFormat(undefined, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
          const fullFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'medium' });
          // Newest first; the same date taken: by identifier (the server's order).
          const before = (a, b) => {
            const difference = dateTaken(b) - dateTaken(a);
            return difference !== 0 ? difference : (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
          };

          function duration(seconds) {
            const whole = Math.round(seconds);
            const text = Math.floor(whole / 60) + ':' + String(whole % 60).padStart(2, '0');
            return whole >= 3600 ? Math.floor(whole / 3600) + ':' + text.padStart(5, '0') : text;
          }

          // A tile that says why its picture cannot be shown, instead of a broken image.
          const failures = new Map();
          function showFailure(tile, message) {
            failures.set(tile.dataset.assetId, message);
            tile.dataset.still = 'failed';
            tile.classList.add('failed');
            for (const media of tile.querySelectorAll('img, live-photo')) media.remove();
            const note = document.createElement('p');
            note.className = 'failure';
            note.textContent = 'Cannot show this ' + (tile.dataset.kind === 'video' ? 'video' : 'photo') + ': ' + message;
            tile.prepend(note);
          }

          // Media load when a tile comes near the screen: the placeholder at once, then the still.
          const nearScreen = new IntersectionObserver((entries) => {
            for (const entry of entries) {
              if (!entry.isIntersecting) continue;
              nearScreen.unobserve(entry.target);
              loadTileMedia(entry.target);
            }
          }, { rootMargin: '600px 0px' });

          // At most six tiles load at once (a fast scroll passes hundreds); one scrolled away before its
          // turn waits until it comes near again.
          const waiting = [];
          let loadingTiles = 0;
          // Each tile's still first, then (queued behind every still) a Live Photo's motion, so a hover
          // plays at once.
          function loadTileMedia(tile) {
            waiting.push({ tile, load: loadTile });
            pumpTiles();
          }
          function pumpTiles() {
            while (loadingTiles < 6 && waiting.length) {
              const stills = waiting.findIndex((task) => task.load === loadTile);
              const { tile, load } = waiting.splice(stills >= 0 ? stills : 0, 1)[0];
              const box = tile.getBoundingClientRect();
              if (!tile.isConnected || box.bottom < -600 || box.top > innerHeight + 600) {
                if (tile.isConnected && load === loadTile) nearScreen.observe(tile);
                continue;
              }
              loadingTiles += 1;
              load(tile).finally(() => { loadingTiles -= 1; pumpTiles(); });
            }
          }
          // The still as a decoded image: the placeholder until then.
          async function decoded(url) {
            const image = new Image();
            image.src = url;
            await image.decode().catch(() => {});
            return url;
          }
          async function loadTile(tile) {
            const asset = byId.get(tile.dataset.assetId);
            if (!asset) return;
            const failed = (asset.derivativeFailures || []).find((failure) => failure.derivative === 'placeholder' || failure.derivative === 'still');
            if (failed) { showFailure(tile, failed.message); return; }
            const player = tile.querySelector('live-photo');
            const image = tile.querySelector('img');
            const show = (url) => { if (player) player.setAttribute('photo-src', url); else image.src = url; };
            let final = false;
            const placeholder = blobURL(asset.links.placeholder).then((url) => { if (!final) show(url); }).catch(() => {});
            try {
              const url = await decoded(await blobURL(asset.links.still));
              final = true;
              show(url);
              tile.dataset.still = 'ready';
            } catch (error) {
              showFailure(tile, error.message);
              return;
            }
            await placeholder;
            if (player) { waiting.push({ tile, load: loadMotion }); }
          }
          async function loadMotion(tile) {
            const asset = byId.get(tile.dataset.assetId);
            const player = tile.querySelector('live-photo');
            if (!asset || !player) return;
            try {
              player.setAttribute('video-src', await blobURL(asset.links.motion));
            } catch (error) {
              tile.dataset.motion = 'failed';
              tile.title = 'The motion cannot be played: ' + error.message;
            }
          }

          function makeTile(asset) {
            const tile = document.createElement('div');
            tile.className = 'tile';
            tile.dataset.assetId = asset.id;
            tile.dataset.kind = asset.mediaType === 'video' ? 'video' : 'photo';
            tile.tabIndex = 0;
            tile.setAttribute('role', 'button');
            const label = (asset.isMotionPhoto ? 'Motion photo' : asset.isLivePhoto ? 'Live Photo' : asset.mediaType === 'video' ? 'Video' : 'Photo')
              + ', ' + fullFormat.format(dateTaken(asset));
            tile.setAttribute('aria-label', label);
            if (asset.isLivePhoto && asset.links.motion) {
              // The <live-photo> element (/v1/live-photo.js) plays it; the tile keeps the focus (Enter
              // opens, Space plays), so the element leaves the tab order.
              tile.dataset.livePhoto = '';
              const player = document.createElement('live-photo');
              player.setAttribute('playback-style', playbackStyle);
              player.setAttribute('muted', '');
              player.setAttribute('label', label);
              player.tabIndex = -1;
              tile.append(player);
            } else {
              const image = document.createElement('img');
              image.alt = label;
              image.decoding = 'async';
              tile.append(image);
            }
            if (asset.mediaType === 'video') {
              const badge = document.createElement('span');
              badge.className = 'badge duration';
              badge.textContent = duration(asset.duration);
              tile.append(badge);
            }
            tile.addEventListener('click', () => openDetail(byId.get(asset.id)));
            tile.addEventListener('keydown', (event) => {
              if (event.key === 'Enter') { event.preventDefault(); openDetail(byId.get(asset.id)); }
              const player = tile.querySelector('live-photo');
              if (event.key === ' ' && player) { event.preventDefault(); if (player.playing) player.stop(); else player.play(); }
            });
            nearScreen.observe(tile);
            return tile;
          }

          // The grid: a month heading where the month changes, a day heading where the day does (the
          // viewer's time zone), then the tiles; the sentinel last asks for the next page.
          const sentinel = document.createElement('div');
          sentinel.id = 'more';
          function heading(tag, kind, key, text) {
            const element = document.createElement(tag);
            element.className = kind;
            element.dataset[kind] = key;
            element.textContent = text;
            return element;
          }
          function render() {
            const children = [];
            let month = null;
            let day = null;
            for (const asset of assets) {
              const date = dateTaken(asset);
              if (monthKey(date) !== month) {
                month = monthKey(date);
                children.push(heading('h2', 'month', month, monthFormat.format(date)));
              }
              if (dayKey(date) !== day) {
                day = dayKey(date);
                children.push(heading('h3', 'day', day, dayFormat.format(date)));
              }
              if (!tiles.has(asset.id)) tiles.set(asset.id, makeTile(asset));
              children.push(tiles.get(asset.id));
            }
            $('grid').replaceChildren(...children, sentinel);
            $('grid').dataset.complete = complete ? 'true' : 'false';
            status(total + (total === 1 ? ' item' : ' items'));
          }

          function add(asset) {
            const known = byId.get(asset.id);
            if (known && JSON.stringify(known) === JSON.stringify(asset)) return;
            byId.set(asset.id, asset);
            if (known) {
              assets[assets.indexOf(known)] = asset;
              assets.sort(before);
              const old = tiles.get(asset.id);
              tiles.delete(asset.id);
              if (old && openIndex >= 0 && assets[openIndex] && assets[openIndex].id === asset.id) openDetail(asset);
              return;
            }
            // Past the last loaded one: its page will bring it.
            if (!complete && assets.length && before(assets[assets.length - 1], asset) < 0) return;
            assets.push(asset);
            assets.sort(before);
          }

          async function loadMore() {
            if (complete || !token) return;
            if (loading) return loading;
            loading = (async () => {
              const response = await api('/v1/assets?limit=' + pageSize + (cursor ? '&cursor=' + encodeURIComponent(cursor) : ''));
              if (!response.ok) throw new Error('the library could not be listed: ' + response.status);
              const page = await response.json();
              total = page.total;
              for (const asset of page.assets) if (!byId.has(asset.id)) { byId.set(asset.id, asset); assets.push(asset); }
              cursor = page.next || null;
              complete = !cursor;
              render();
            })().finally(() => { loading = null; });
            await loading;
            // Still in sight (a tall screen, a fast scroll): the next page at once.
            if (!complete && sentinel.getBoundingClientRect().top < innerHeight + 800) return loadMore();
          }
          // A page that could not be fetched is asked for again a second later.
          function more() {
            loadMore().catch((error) => { status('Loading again: ' + error.message); setTimeout(more, 1000); });
          }
          new IntersectionObserver((entries) => {
            if (entries.some((entry) => entry.isIntersecting)) more();
          }, { rootMargin: '800px 0px' }).observe(sentinel);

          async function refreshAsset(id) {
            const response = await api('/v1/assets/' + encodeURIComponent(id));
            if (response.status === 404) { remove(id); return; }
            if (!response.ok) return;
            const asset = await response.json();
            delete asset.metadata;  // as the list shows it
            add(asset);
          }

          function remove(id) {
            const known = byId.get(id);
            if (!known) return;
            byId.delete(id);
            tiles.delete(id);
            assets.splice(assets.indexOf(known), 1);
          }

          // The detail view.
          async function openDetail(asset) {
            if (!asset) return;
            openIndex = assets.indexOf(asset);
            const detail = $('detail');
            detail.dataset.assetId = asset.id;
            const media = $('detail-media');
            media.replaceChildren();
            media.className = '';
            const version = showingOriginal ? '?version=original' : '';
            if (asset.mediaType === 'video' && (asset.links.playback || asset.links.video)) {
              const video = document.createElement('video');
              video.controls = true;
              video.playsInline = true;
              media.append(video);
              // The server's H.264 copy (playback.mp4: made in the background, whatever the original's
              // codec); without one, the original, typed as MP4 (a QuickTime movie is an ISO media file).
              const failed = (asset.derivativeFailures || []).find((failure) => failure.derivative === 'playback');
              const source = asset.links.playback ? asset.links.playback + version : asset.links.video;
              video.addEventListener('error', () => { media.textContent = 'This browser cannot play this video: download the original.'; });
              if (failed) media.textContent = 'Cannot play this video: ' + failed.message;
              else blobURL(source, 'video/mp4').then((url) => { video.src = url; }).catch((error) => { media.textContent = 'Cannot play this video: ' + error.message; });
            } else {
              const live = asset.isLivePhoto && asset.links.motion;
              const picture = document.createElement(live ? 'live-photo' : 'img');
              media.append(picture);
              const failed = (error) => {
                picture.remove();
                const note = document.createElement('p');
                note.className = 'failure';
                note.textContent = 'Cannot show this photo: ' + error.message;
                media.prepend(note);
              };
              if (live) {
                picture.setAttribute('playback-style', 'full');
                picture.setAttribute('label', asset.isMotionPhoto ? 'Motion photo' : 'Live Photo');
                blobURL(asset.links.still + version).then((url) => picture.setAttribute('photo-src', url)).catch(failed);
                blobURL(asset.links.motion + version).then((url) => picture.setAttribute('video-src', url)).catch(() => {});
                const button = document.createElement('button');
                button.className = 'play';
                button.textContent = 'Play ' + (asset.isMotionPhoto ? 'motion photo' : 'Live Photo');
                button.addEventListener('click', () => picture.play());
                media.append(button);
              } else {
                picture.alt = '';
                blobURL(asset.links.still + version).then((url) => { picture.src = url; }).catch(failed);
              }
            }
            $('original').hidden = !asset.hasAdjustments;
            $('original').textContent = showingOriginal ? 'Show edited' : 'Show original';
            const download = $('download');
            download.textContent = 'Download original';
            download.onclick = () => downloadOriginal(asset);
            fillInfo(asset, null);
            detail.hidden = false;
            $('close').focus();
            const response = await api('/v1/assets/' + encodeURIComponent(asset.id));
            if (response.ok && detail.dataset.assetId === asset.id) fillInfo(asset, (await response.json()).metadata);
          }
          let showingOriginal = false;

          function fillInfo(asset, metadata) {
            const info = $('detail-info');
            info.replaceChildren();
            const kind = asset.isMotionPhoto ? 'Motion photo' : asset.isLivePhoto ? 'Live Photo' : asset.mediaType === 'video' ? 'Video' : 'Photo';
            const rows = [['Kind', kind + (asset.hasAdjustments ? ' · Edited' : '')]];
            rows.push(['Taken', asset.creationDate ? fullFormat.format(new Date(asset.creationDate)) : 'unknown']);
            rows.push(['Added', fullFormat.format(new Date(asset.addedDate))]);
            const width = metadata ? metadata.uprightWidth : asset.pixelWidth;
            const height = metadata ? metadata.uprightHeight : asset.pixelHeight;
            rows.push(['Size', width + ' × ' + height]);
            if (asset.mediaType === 'video' || asset.isLivePhoto) rows.push(['Duration', asset.mediaType === 'video' ? duration(asset.duration) : asset.duration.toFixed(1) + ' s']);
            if (metadata && (metadata.make || metadata.model)) rows.push(['Camera', [metadata.make, metadata.model].filter(Boolean).join(' ')]);
            if (asset.location) rows.push(['Location', asset.location.latitude.toFixed(5) + ', ' + asset.location.longitude.toFixed(5)]);
            for (const failure of asset.derivativeFailures || []) rows.push(['Problem', failure.derivative + ': ' + failure.message]);
            if (failures.has(asset.id) && !(asset.derivativeFailures || []).length) rows.push(['Problem', failures.get(asset.id)]);
            for (const [name, value] of rows) {
              const term = document.createElement('dt'); term.textContent = name;
              const detail = document.createElement('dd'); detail.textContent = value;
              detail.dataset.field = name.toLowerCase();
              info.append(term, detail);
            }
          }

          async function downloadOriginal(asset) {
            const path = asset.links.photo || asset.links.video;
            if (!path) return;
            const resource = asset.resources.find((item) => item.type === (asset.links.photo ? 'photo' : 'video'));
            const link = document.createElement('a');
            link.href = await blobURL(path);
            link.download = (resource && resource.originalFilename) || asset.id;
            link.click();
          }

          function closeDetail() {
            const detail = $('detail');
            if (detail.hidden) return;
            detail.hidden = true;
            for (const video of detail.querySelectorAll('video')) video.pause();
            for (const player of detail.querySelectorAll('live-photo')) player.stop();
            const tile = tiles.get(detail.dataset.assetId);
            openIndex = -1;
            showingOriginal = false;
            if (tile) tile.focus();
          }

          async function step(by) {
            if (openIndex < 0) return;
            let index = openIndex + by;
            if (index >= assets.length && !complete) { await loadMore(); }
            if (index < 0 || index >= assets.length) return;
            showingOriginal = false;
            openDetail(assets[index]);
            const tile = tiles.get(assets[index].id);
            if (tile) tile.scrollIntoView({ block: 'nearest' });
          }

          $('close').addEventListener('click', closeDetail);
          $('detail').addEventListener('click', (event) => { if (event.target === $('detail')) closeDetail(); });
          $('previous').addEventListener('click', () => step(-1));
          $('next').addEventListener('click', () => step(1));
          $('original').addEventListener('click', () => { showingOriginal = !showingOriginal; openDetail(assets[openIndex]); });
          $('delete').addEventListener('click', async () => {
            const id = $('detail').dataset.assetId;
            const response = await api('/v1/assets/' + encodeURIComponent(id), { method: 'DELETE' });
            if (response.status === 204) { closeDetail(); remove(id); total -= 1; render(); }
          });
          document.addEventListener('keydown', (event) => {
            if ($('detail').hidden) return;
            if (event.key === 'Escape') { event.preventDefault(); closeDetail(); }
            else if (event.key === 'ArrowRight') { event.preventDefault(); step(1); }
            else if (event.key === 'ArrowLeft') { event.preventDefault(); step(-1); }
          });

          async function sha256Header(file) {
            if (!(window.crypto && crypto.subtle)) return null;
            const digest = await crypto.subtle.digest('SHA-256', await file.arrayBuffer());
            return 'sha-256=:' + btoa(String.fromCharCode(...new Uint8Array(digest))) + ':';
          }

          function upload(file) {
            const row = document.createElement('li');
            const name = document.createElement('span'); name.textContent = file.name;
            const bar = document.createElement('progress'); bar.max = 1; bar.value = 0;
            const outcome = document.createElement('span'); outcome.className = 'outcome'; outcome.textContent = 'uploading';
            row.append(name, bar, outcome);
            $('uploads').append(row);
            const id = (crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random().toString(16).slice(2));
            return sha256Header(file).then((digest) => new Promise((resolve) => {
              const request = new XMLHttpRequest();
              request.open('PUT', '/v1/uploads/' + id);
              request.setRequestHeader('Authorization', 'Bearer ' + token);
              request.setRequestHeader('X-Original-Filename', encodeURIComponent(file.name));
              if (digest) request.setRequestHeader('Content-Digest', digest);
              request.upload.onprogress = (event) => { if (event.lengthComputable) bar.value = event.loaded / event.total; };
              request.onload = () => {
                bar.value = 1;
                let body = {};
                try { body = JSON.parse(request.responseText); } catch (error) { /* not JSON */ }
                const kind = body.outcome || 'failed';
                row.className = kind;
                row.dataset.outcome = kind;
                if (kind === 'pending') outcome.textContent = 'pending: waiting for the other half';
                else if (kind === 'rejected') outcome.textContent = 'rejected: ' + body.findings.map((finding) => finding.code + ' (' + finding.message + ')').join('; ');
                else if (kind === 'failed') outcome.textContent = 'failed: ' + request.status + ' ' + ((body.error && body.error.message) || '');
                else outcome.textContent = kind;
                if (body.asset) { add(body.asset); render(); }
                resolve(kind);
              };
              request.onerror = () => { row.className = 'failed'; row.dataset.outcome = 'failed'; outcome.textContent = 'failed: network error'; resolve('failed'); };
              request.send(file);
            }));
          }

          async function uploadAll(files) {
            for (const file of files) await upload(file);
          }
          $('files').addEventListener('change', (event) => { uploadAll([...event.target.files]); event.target.value = ''; });
          const drop = $('drop');
          drop.addEventListener('dragover', (event) => { event.preventDefault(); drop.classList.add('over'); });
          drop.addEventListener('dragleave', () => drop.classList.remove('over'));
          drop.addEventListener('drop', (event) => {
            event.preventDefault();
            drop.classList.remove('over');
            uploadAll([...event.dataTransfer.files]);
          });

          // Other clients' uploads, edits and deletions: the change feed as Server-Sent Events, read
          // with fetch (an EventSource cannot send the bearer header); resumed after the last position.
          async function applyChanges(changes) {
            const counted = await api('/v1/assets?limit=1');
            if (counted.ok) total = (await counted.json()).total;
            for (const id of changes.deleted) remove(id);
            await Promise.all([...changes.inserted, ...changes.updated].map(refreshAsset));
            render();
          }

          async function watch() {
            let since = null;
            for (;;) {
              try {
                const response = await api('/v1/changes' + (since === null ? '' : '?since=' + since), { headers: { Accept: 'text/event-stream' } });
                if (!response.ok || !response.body) throw new Error('the change feed answered ' + response.status);
                const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
                let buffer = '';
                for (;;) {
                  const { value, done } = await reader.read();
                  if (done) break;
                  buffer += value;
                  let end;
                  while ((end = buffer.indexOf('\n\n')) >= 0) {
                    const block = buffer.slice(0, end);
                    buffer = buffer.slice(end + 2);
                    let event = 'message', data = '', id = null;
                    for (const line of block.split('\n')) {
                      if (line.startsWith('event:')) event = line.slice(6).trim();
                      else if (line.startsWith('data:')) data += line.slice(5).trim();
                      else if (line.startsWith('id:')) id = line.slice(3).trim();
                    }
                    if (id !== null) since = id;
                    if (event === 'change' && data) await applyChanges(JSON.parse(data));
                  }
                }
              } catch (error) { /* the server went away: try again shortly */ }
              await new Promise((done) => setTimeout(done, 2000));
            }
          }

          if (!token) { status('Open this page as /#token=YOUR_TOKEN'); return; }
          more();
          watch();
        })();
        """#

    static let bytes = Array(javascript.utf8)
}
