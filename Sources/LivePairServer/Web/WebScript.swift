/// The page's script (`GET /app.js`): token handling, the grid, Live Photo playback in the style
/// of LivePhotosKit JS ("hint": muted motion while hovered or pressed, back to the still at the
/// end or on leave; "full": with sound and a slight zoom), the detail view and the uploads.
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
          let playbackStyle = 'hint';
          $('style').addEventListener('change', (event) => { playbackStyle = event.target.value; });

          async function api(path, options = {}) {
            const response = await fetch(path, { ...options, headers: { ...auth(), ...(options.headers || {}) } });
            if (response.status === 401) { status('The token is missing or wrong: open /#token=YOUR_TOKEN'); }
            return response;
          }

          async function blobURL(path) {
            if (blobs.has(path)) return blobs.get(path);
            const promise = api(path).then((response) => {
              if (!response.ok) throw new Error(path + ': ' + response.status);
              return response.blob();
            }).then((blob) => URL.createObjectURL(blob));
            blobs.set(path, promise);
            promise.catch(() => blobs.delete(path));
            return promise;
          }

          // A Live Photo tile: placeholder, then still; motion while hovered (mouse) or pressed (touch).
          function makeTile(asset) {
            const tile = document.createElement('div');
            tile.className = 'tile';
            tile.dataset.assetId = asset.id;
            const image = document.createElement('img');
            image.alt = asset.resources.map((resource) => resource.originalFilename || resource.type).join(', ');
            image.decoding = 'async';
            tile.append(image);
            blobURL(asset.links.placeholder).then((url) => { if (!image.dataset.final) image.src = url; })
              .then(() => blobURL(asset.links.still + '?size=512'))
              .then((url) => { image.src = url; image.dataset.final = 'still'; tile.dataset.still = 'ready'; })
              .catch(() => { tile.dataset.still = 'failed'; });
            if (asset.links.motion) {
              tile.dataset.livePhoto = '';
              const badge = document.createElement('span');
              badge.className = 'badge';
              badge.textContent = 'LIVE';
              tile.append(badge);
              attachMotion(tile, asset.links.motion + '?size=512');
            }
            tile.addEventListener('click', () => openDetail(asset));
            return tile;
          }

          function attachMotion(container, motionPath) {
            const video = document.createElement('video');
            video.muted = true;
            video.playsInline = true;
            video.preload = 'none';
            container.append(video);
            let wanted = false;
            const stop = () => {
              wanted = false;
              container.classList.remove('playing', 'full');
              video.pause();
              try { video.currentTime = 0; } catch (error) { /* not loaded yet */ }
            };
            const play = async () => {
              wanted = true;
              try {
                if (!video.src) video.src = await blobURL(motionPath);
                if (!wanted) return;
                video.muted = playbackStyle !== 'full';
                container.classList.add('playing');
                if (playbackStyle === 'full') container.classList.add('full');
                video.currentTime = 0;
                await video.play().catch(() => { video.muted = true; return video.play(); });
              } catch (error) { stop(); }
            };
            video.addEventListener('ended', stop);
            container.addEventListener('pointerenter', (event) => { if (event.pointerType === 'mouse') play(); });
            container.addEventListener('pointerleave', (event) => { if (event.pointerType === 'mouse') stop(); });
            container.addEventListener('pointerdown', (event) => { if (event.pointerType !== 'mouse') play(); });
            for (const name of ['pointerup', 'pointercancel']) {
              container.addEventListener(name, (event) => { if (event.pointerType !== 'mouse') stop(); });
            }
            container.addEventListener('contextmenu', (event) => event.preventDefault());
          }

          async function openDetail(asset) {
            const media = $('detail-media');
            media.replaceChildren();
            media.className = '';
            const image = document.createElement('img');
            media.append(image);
            blobURL(asset.links.still + '?size=1024').then((url) => { image.src = url; });
            if (asset.links.motion) attachMotion(media, asset.links.motion + '?size=1024');
            const info = $('detail-info');
            info.replaceChildren();
            const rows = [['Kind', asset.isLivePhoto ? 'Live Photo' : asset.mediaType], ['Size', asset.pixelWidth + ' × ' + asset.pixelHeight],
              ['Created', asset.creationDate || 'unknown'], ['Added', asset.addedDate], ['Identifier', asset.id]];
            for (const resource of asset.resources) rows.push([resource.type, (resource.originalFilename || '') + ' (' + resource.size + ' bytes)']);
            for (const [name, value] of rows) {
              const term = document.createElement('dt'); term.textContent = name;
              const detail = document.createElement('dd'); detail.textContent = value;
              info.append(term, detail);
            }
            $('delete').onclick = async () => {
              const response = await api('/v1/assets/' + encodeURIComponent(asset.id), { method: 'DELETE' });
              if (response.status === 204) { $('detail').hidden = true; refresh(); }
            };
            $('detail').hidden = false;
          }
          $('close').addEventListener('click', () => { $('detail').hidden = true; });

          async function refresh() {
            if (!token) { status('Open this page as /#token=YOUR_TOKEN'); return; }
            const response = await api('/v1/assets?limit=500');
            if (!response.ok) return;
            const page = await response.json();
            const grid = $('grid');
            const existing = new Map([...grid.children].map((tile) => [tile.dataset.assetId, tile]));
            const tiles = page.assets.map((asset) => existing.get(asset.id) || makeTile(asset));
            grid.replaceChildren(...tiles);
            status(page.total + (page.total === 1 ? ' item' : ' items'));
          }

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
                resolve(kind);
              };
              request.onerror = () => { row.className = 'failed'; row.dataset.outcome = 'failed'; outcome.textContent = 'failed: network error'; resolve('failed'); };
              request.send(file);
            }));
          }

          async function uploadAll(files) {
            for (const file of files) await upload(file);
            refresh();
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

          // Other clients' uploads and deletions: a long poll on the change log.
          async function watch() {
            let since = null;
            for (;;) {
              try {
                const response = await api('/v1/changes' + (since === null ? '' : '?since=' + since + '&timeout=25'));
                if (!response.ok) { await new Promise((done) => setTimeout(done, 5000)); continue; }
                const changes = await response.json();
                if (since !== null && (changes.inserted.length || changes.updated.length || changes.deleted.length)) refresh();
                since = changes.next;
              } catch (error) { await new Promise((done) => setTimeout(done, 5000)); }
            }
          }

          refresh();
          if (token) watch();
        })();
        """#

    static let bytes = Array(javascript.utf8)
}
