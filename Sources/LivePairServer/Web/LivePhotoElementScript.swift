import Foundation
import LivePairCrypto

/// The `<live-photo>` custom element (`GET /v1/live-photo.js`): one dependency-free script any page
/// loads with `<script src=".../v1/live-photo.js">` to show a Live Photo or a motion photo after
/// Apple's LivePhotosKit JS (LIVE badge, hover and press-and-hold playback, "hint" and "full"
/// styles, keyboard, reduced motion, Loop and Bounce). Its attributes, events and the comparison
/// with LivePhotosKit JS are in docs/web.md.
enum LivePhotoElementScript {
    static let javascript = #"""
        'use strict';
        // <live-photo>: a Live Photo (or an Android motion photo) on any page, after Apple's LivePhotosKit JS.
        // Served by `livepair serve` at /v1/live-photo.js; no dependencies, no build step. See docs/web.md.
        (() => {
          if (!window.customElements || customElements.get('live-photo')) return;

          // The most of the motion the "hint" style plays, from the key photo on.
          const HINT_SECONDS = 1.5;
          const SOURCE_ATTRIBUTES = ['photo-src', 'video-src', 'asset-id', 'api-base', 'token'];
          const reducedMotion = window.matchMedia ? window.matchMedia('(prefers-reduced-motion: reduce)') : { matches: false };

          const STYLE = `
            :host { display: inline-block; position: relative; overflow: hidden; vertical-align: top; max-width: 100%;
              background: var(--live-photo-background, #e4e4e7); cursor: default; user-select: none; -webkit-user-select: none;
              -webkit-touch-callout: none; -webkit-tap-highlight-color: transparent; }
            :host([hidden]) { display: none; }
            :host(:focus) { outline: none; }
            :host(:focus-visible) { outline: 3px solid var(--live-photo-focus-color, #2563eb); outline-offset: 2px; }
            .frame { position: relative; width: 100%; height: 100%; }
            img, video { display: block; width: 100%; height: 100%; object-fit: var(--live-photo-object-fit, cover); }
            img { -webkit-user-drag: none; }
            video { position: absolute; inset: 0; opacity: 0; transition: opacity 0.2s ease-out; pointer-events: none; }
            .playing video, .video-only video { opacity: 1; }
            .video-only img { display: none; }
            .video-only video { position: static; }
            .badge { position: absolute; top: 8px; left: 8px; display: none; align-items: center; gap: 4px; padding: 2px 6px 2px 4px;
              border-radius: 4px; background: rgba(255, 255, 255, 0.82); color: #1c1c1e; font: 600 11px/1.4 system-ui, sans-serif;
              letter-spacing: 0.04em; pointer-events: none; }
            .has-motion .badge { display: inline-flex; }
            .badge svg { width: 14px; height: 14px; }
            .playing .badge { opacity: 0.6; }
            .error { position: absolute; inset: 0; display: flex; align-items: center; justify-content: center; padding: 12px;
              box-sizing: border-box; background: var(--live-photo-error-background, #f4f4f5); color: #3f3f46;
              font: 13px/1.4 system-ui, sans-serif; text-align: center; overflow-wrap: anywhere; }
            .error[hidden] { display: none; }
            .error.partial { inset: auto 0 0 0; padding: 6px 8px; background: rgba(0, 0, 0, 0.65); color: #fff; font-size: 12px; }
            .failed { min-width: 160px; min-height: 120px; }
            .failed img { visibility: hidden; }
            @media (prefers-reduced-motion: reduce) { video { transition: none; } }
          `;
          const BADGE_ICON = '<svg viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="1.6">'
            + '<circle cx="12" cy="12" r="3" fill="currentColor" stroke="none"/><circle cx="12" cy="12" r="6.5"/>'
            + '<circle cx="12" cy="12" r="10" stroke-dasharray="1.6 2.4"/></svg>';

          function mediaErrorText(error) {
            const names = { 1: 'aborted', 2: 'network error', 3: 'could not be decoded', 4: 'format not supported' };
            return error ? (names[error.code] || 'error ' + error.code) + (error.message ? ' (' + error.message + ')' : '') : 'unknown error';
          }

          class LivePhotoElement extends HTMLElement {
            static get observedAttributes() {
              return [...SOURCE_ATTRIBUTES, 'label', 'still-time', 'playback-style', 'playback-variation', 'muted'];
            }

            constructor() {
              super();
              const root = this.attachShadow({ mode: 'open' });
              root.innerHTML = '<style>' + STYLE + '</style><div class="frame" part="frame">'
                + '<img part="photo" alt="" draggable="false">'
                + '<video part="video" muted playsinline disablepictureinpicture disableremoteplayback preload="none"></video>'
                + '<span class="badge" part="badge" aria-hidden="true">' + BADGE_ICON + 'LIVE</span>'
                + '<div class="error" part="error" hidden></div></div>';
              this._frame = root.querySelector('.frame');
              this._image = root.querySelector('img');
              this._video = root.querySelector('video');
              this._error = root.querySelector('.error');
              this._playing = false;
              this._trigger = null;
              this._attempt = 0;
              this._generation = 0;
              this._blobs = [];
              this._motionURL = null;
              this._motionLoad = null;
              this._assetStillTime = null;
              this._failed = false;
              this._tick = this._tick.bind(this);

              this._image.addEventListener('error', () => {
                if (this._image.getAttribute('src')) this._fail('The photo could not be loaded (' + this._image.getAttribute('src') + ').', true);
              });
              this._video.addEventListener('error', () => {
                if (this._video.getAttribute('src')) this._fail('The motion could not be played: ' + mediaErrorText(this._video.error) + '.', !this._hasPhoto());
              });
              this._video.addEventListener('loadedmetadata', () => { if (!this._playing) this._showStill(); });
              this._video.addEventListener('ended', () => this._ended());

              this.addEventListener('pointerenter', (event) => {
                if (event.pointerType !== 'mouse') return;
                this._hovered = true;
                if (!reducedMotion.matches) this._start('hover');
              });
              this.addEventListener('pointerleave', (event) => {
                if (event.pointerType === 'mouse') this._hovered = false;
                if (this._trigger === 'hover' || this._trigger === 'press') this._finish('leave');
              });
              this.addEventListener('pointerdown', (event) => {
                if (event.button > 0 || this._playing) return;
                this._start('press');
              });
              for (const name of ['pointerup', 'pointercancel']) {
                this.addEventListener(name, (event) => {
                  if (this._trigger !== 'press') return;
                  // A mouse still over the element keeps playing as a hover would.
                  if (event.pointerType === 'mouse' && name === 'pointerup' && !reducedMotion.matches) { this._trigger = 'hover'; return; }
                  this._finish('leave');
                });
              }
              this.addEventListener('contextmenu', (event) => { if (this._motionURL) event.preventDefault(); });
              this.addEventListener('keydown', (event) => {
                if (event.key !== ' ' && event.key !== 'Enter') return;
                event.preventDefault();
                if (event.repeat) return;
                if (this._playing) this._finish('stop'); else this._start('key');
              });
              this.addEventListener('blur', () => { if (this._trigger === 'key') this._finish('leave'); });
            }

            connectedCallback() {
              if (!this.hasAttribute('tabindex')) this.tabIndex = 0;
              if (!this.hasAttribute('role')) this.setAttribute('role', 'img');
              this._updateLabel();
              if (this._cleared || !this._loaded) this._scheduleLoad();
            }

            disconnectedCallback() {
              this._finish('stop');
              // A node moved within the page comes back at once; one removed lets its blob URLs go.
              setTimeout(() => { if (!this.isConnected) { this._release(); this._cleared = true; } }, 0);
            }

            attributeChangedCallback(name, oldValue, newValue) {
              if (oldValue === newValue) return;
              if (name === 'label') this._updateLabel();
              else if (SOURCE_ATTRIBUTES.includes(name)) { if (this.isConnected) this._scheduleLoad(); }
              else if (name === 'still-time' && !this._playing) this._showStill();
            }

            // The API (LivePhotosKit JS's Player names where they exist).
            get photoSrc() { return this.getAttribute('photo-src'); }
            set photoSrc(value) { this._reflect('photo-src', value); }
            get videoSrc() { return this.getAttribute('video-src'); }
            set videoSrc(value) { this._reflect('video-src', value); }
            get playbackStyle() { return this.getAttribute('playback-style') === 'hint' ? 'hint' : 'full'; }
            set playbackStyle(value) { this.setAttribute('playback-style', value === 'hint' ? 'hint' : 'full'); }
            get playbackVariation() {
              const value = this.getAttribute('playback-variation');
              return value === 'loop' || value === 'bounce' ? value : null;
            }
            set playbackVariation(value) { this._reflect('playback-variation', value); }
            get muted() { return this.hasAttribute('muted'); }
            set muted(value) { this.toggleAttribute('muted', Boolean(value)); }
            /** The key photo's time in the motion, in seconds (the `still-time` attribute, else the asset's). */
            get stillTime() {
              const value = parseFloat(this.getAttribute('still-time'));
              if (Number.isFinite(value) && value >= 0) return value;
              return this._assetStillTime;
            }
            set stillTime(value) { this._reflect('still-time', value); }
            /** The asset's JSON as the API lists it: set it (with `api-base` and `token`) to skip the element's own fetch of it. */
            get asset() { return this._givenAsset || null; }
            set asset(value) {
              this._givenAsset = value || null;
              if (value && value.id) this.setAttribute('asset-id', value.id);
              if (this.isConnected) this._scheduleLoad();
            }
            get playing() { return this._playing; }
            get currentTime() { return this._video.currentTime; }
            get duration() { return Number.isFinite(this._video.duration) ? this._video.duration : NaN; }

            /** Plays the motion as a press would (in `playback-style`, with `playback-variation`). */
            play() { return this._start('api'); }
            /** Stops the motion and shows the still again. */
            stop() { this._finish('stop'); }

            _reflect(name, value) {
              if (value === null || value === undefined) this.removeAttribute(name); else this.setAttribute(name, String(value));
            }

            _updateLabel() {
              const label = this.getAttribute('label') || 'Live Photo';
              this.setAttribute('aria-label', label);
              this._image.alt = label;
            }

            _hasPhoto() { return Boolean(this._image.getAttribute('src')); }

            _scheduleLoad() {
              if (this._loadQueued) return;
              this._loadQueued = true;
              queueMicrotask(() => { this._loadQueued = false; if (this.isConnected) this._load(); });
            }

            _release() {
              this._finish('stop');
              if (this._observer) { this._observer.disconnect(); this._observer = null; }
              for (const url of this._blobs) URL.revokeObjectURL(url);
              this._blobs = [];
              this._image.removeAttribute('src');
              delete this._image.dataset.still;
              this._video.removeAttribute('src');
              this._video.load();
            }

            async _load() {
              const generation = ++this._generation;
              this._release();
              this._loaded = true;
              this._cleared = false;
              this._failed = false;
              this._error.hidden = true;
              this._frame.classList.remove('failed', 'has-motion', 'video-only');
              this._motionURL = null;
              this._motionLoad = null;
              this._assetStillTime = null;
              const assetID = this.getAttribute('asset-id');
              if (assetID) {
                try {
                  await this._loadAsset(assetID, generation);
                } catch (error) {
                  if (generation === this._generation) this._fail(String(error && error.message || error), true);
                }
                return;
              }
              const photo = this.getAttribute('photo-src');
              const video = this.getAttribute('video-src');
              if (photo) this._image.src = photo;
              if (video) {
                this._motionURL = video;
                this._frame.classList.add('has-motion');
                if (!photo) {
                  this._frame.classList.add('video-only');
                  this._video.preload = 'auto';
                  this._video.src = video;
                } else {
                  this._prefetchWhenVisible();
                }
              }
            }

            // asset-id + api-base + token: the asset's JSON, then its derivatives as blob URLs.
            async _loadAsset(assetID, generation) {
              const base = (this.getAttribute('api-base') || '').replace(/\/+$/, '');
              const given = this._givenAsset && this._givenAsset.id === assetID ? this._givenAsset : null;
              const asset = given || await (await this._request(base + '/v1/assets/' + encodeURIComponent(assetID), 'the asset')).json();
              if (generation !== this._generation) return;
              if (typeof asset.stillImageTime === 'number') this._assetStillTime = asset.stillImageTime;
              const size = '?size=' + Math.min(2048, Math.max(256, Math.ceil((this.clientWidth || 512) * (window.devicePixelRatio || 1))));
              if (asset.links && asset.links.motion) {
                this._motionURL = base + asset.links.motion + size;
                this._frame.classList.add('has-motion');
              }
              // The placeholder (small, made first) at once, then the still.
              const placeholder = asset.links.placeholder ? this._blobURL(base + asset.links.placeholder, 'the placeholder') : null;
              const stillLoad = this._blobURL(base + asset.links.still + size, 'the still');
              if (placeholder) {
                placeholder.then((url) => {
                  if (generation === this._generation && !this._image.dataset.still) this._image.src = url;
                }).catch(() => {});
              }
              const still = await stillLoad;
              if (generation !== this._generation) return;
              this._image.dataset.still = 'ready';
              this._image.src = still;
              if (this._motionURL) this._prefetchWhenVisible();
            }

            // A fetch with the token; a derivative still being made (202, 503 with Retry-After) is asked again.
            async _request(url, what) {
              const token = this.getAttribute('token');
              const headers = token ? { Authorization: 'Bearer ' + token } : {};
              for (let attempt = 0; ; attempt += 1) {
                let response;
                try {
                  response = await fetch(url, { headers });
                } catch (error) {
                  throw new Error('Could not load ' + what + ': the server did not answer (offline, or another origin without CORS).');
                }
                if (response.ok && response.status !== 202) return response;
                const retry = parseFloat(response.headers.get('Retry-After'));
                if ((response.status === 202 || (response.status === 503 && Number.isFinite(retry))) && attempt < 30) {
                  await new Promise((resolve) => setTimeout(resolve, Math.min(5, Number.isFinite(retry) ? retry : 1) * 1000));
                  continue;
                }
                let reason = '';
                try { reason = (await response.json()).error || ''; } catch (error) { /* not JSON */ }
                throw new Error('Could not load ' + what + ': HTTP ' + response.status + (reason ? ' (' + reason + ')' : '') + '.');
              }
            }

            async _blobURL(url, what) {
              const blob = await (await this._request(url, what)).blob();
              const objectURL = URL.createObjectURL(blob);
              this._blobs.push(objectURL);
              return objectURL;
            }

            // Starts loading the motion once the element is near the viewport, so a hover plays at once.
            _prefetchWhenVisible() {
              if (!window.IntersectionObserver) return;
              this._observer = new IntersectionObserver((entries) => {
                if (!entries.some((entry) => entry.isIntersecting)) return;
                this._observer.disconnect();
                this._observer = null;
                this._loadMotion().catch(() => {});
              }, { rootMargin: '200px' });
              this._observer.observe(this);
            }

            // The motion's source on the <video>: the file, or the derivative fetched with the token.
            _loadMotion() {
              if (!this._motionLoad) {
                const generation = this._generation;
                this._motionLoad = (async () => {
                  const url = this.getAttribute('asset-id') ? await this._blobURL(this._motionURL, 'the motion') : this._motionURL;
                  if (generation !== this._generation) throw new Error('replaced');
                  if (this._video.getAttribute('src') !== url) {
                    this._video.preload = 'auto';
                    this._video.src = url;
                  }
                })();
                this._motionLoad.catch((error) => {
                  if (error.message !== 'replaced') this._fail(error.message, !this._hasPhoto());
                });
              }
              return this._motionLoad;
            }

            // The still: the photo, or (a video alone) the movie's frame at the key photo's time.
            _showStill() {
              if (!this._frame.classList.contains('video-only') || !this._video.getAttribute('src')) return;
              const time = this.stillTime || 0;
              if (this._video.readyState >= 1 && Math.abs(this._video.currentTime - time) > 0.001) {
                this._video.currentTime = Math.min(time, this.duration || time);
              }
            }

            async _start(trigger) {
              if (!this._motionURL || this._failed) return;
              if (this._playing) { if (trigger !== 'hover') this._trigger = trigger; return; }
              const attempt = ++this._attempt;
              this._playing = true;
              this._trigger = trigger;
              this._direction = 1;
              const style = this.playbackStyle;
              const variation = this.playbackVariation;
              this._announced = false;
              try {
                await this._loadMotion();
                if (attempt !== this._attempt) return;
                const video = this._video;
                if (video.readyState < 1) await new Promise((resolve, reject) => {
                  video.addEventListener('loadedmetadata', resolve, { once: true });
                  video.addEventListener('error', reject, { once: true });
                });
                if (attempt !== this._attempt) return;
                const key = Math.min(this.stillTime || 0, video.duration || 0);
                // hint: from the key photo on, at most HINT_SECONDS, silent; full: all of it from the start.
                this._startTime = style === 'hint' && !variation ? Math.max(0, Math.min(key, video.duration - 0.25)) : 0;
                this._hintEnd = style === 'hint' && !variation ? this._startTime + HINT_SECONDS : Infinity;
                video.loop = variation === 'loop';
                video.muted = style === 'hint' || variation !== null || this.muted;
                video.currentTime = this._startTime;
                try {
                  await video.play();
                } catch (error) {
                  if (error.name !== 'NotAllowedError' || video.muted || attempt !== this._attempt) throw error;
                  video.muted = true; // no user gesture yet: the browser allows sound only after one
                  await video.play();
                }
                if (attempt !== this._attempt) { video.pause(); return; }
                // Shown only once it plays, so the last frame of an earlier playback never flashes.
                this._frame.classList.add('playing');
                this.toggleAttribute('playing', true);
                this._announced = true;
                this._emit('livephotoplay', { style, variation, trigger });
                cancelAnimationFrame(this._frameRequest);
                this._frameRequest = requestAnimationFrame(this._tick);
              } catch (error) {
                if (attempt !== this._attempt || !this._playing) return;
                this._finish('stop');
                if (error && error.name !== 'AbortError' && !this._failed) {
                  this._fail('The motion could not be played: ' + (error.message || error) + '.', false);
                }
              }
            }

            // Each frame while playing: the hint's end, and Bounce's backward half (currentTime stepped back
            // in real time; a step is skipped while the previous seek is still decoding).
            _tick(now) {
              if (!this._playing) return;
              const video = this._video;
              if (this._direction < 0) {
                const time = this._reverseFrom - (now - this._reverseStart) / 1000;
                if (time <= this._startTime) {
                  if (this._continues()) {
                    this._direction = 1;
                    video.currentTime = this._startTime;
                    video.play().catch(() => this._finish('stop'));
                  } else {
                    this._finish('ended');
                    return;
                  }
                } else if (!video.seeking) {
                  video.currentTime = time;
                }
              } else if (video.currentTime >= this._hintEnd) {
                this._finish('ended');
                return;
              }
              this._frameRequest = requestAnimationFrame(this._tick);
            }

            // Loop and Bounce go on while hovered, pressed or started by a key or play(); a pointer's leave stops them.
            _continues() { return this._playing && (this._trigger !== 'hover' || this._hovered); }

            _ended() {
              if (!this._playing) return;
              if (this.playbackVariation === 'bounce' && this._continues()) {
                this._direction = -1;
                this._reverseFrom = this._video.duration;
                this._reverseStart = performance.now();
                return;
              }
              this._finish('ended');
            }

            _finish(reason) {
              if (!this._playing) return;
              this._playing = false;
              this._attempt += 1;
              this._trigger = null;
              cancelAnimationFrame(this._frameRequest);
              this._video.pause();
              this._video.loop = false;
              this._frame.classList.remove('playing');
              this.removeAttribute('playing');
              this._showStill();
              if (this._announced) this._emit('livephotoend', { reason });
              this._announced = false;
            }

            _fail(message, hideStill) {
              this._finish('stop');
              this._failed = true;
              this._error.textContent = message;
              this._error.hidden = false;
              this._frame.classList.remove('has-motion');
              this._frame.classList.toggle('failed', hideStill);
              this._error.classList.toggle('partial', !hideStill);
              this._emit('livephotoerror', { message });
            }

            _emit(name, detail) {
              this.dispatchEvent(new CustomEvent(name, { bubbles: true, composed: true, detail }));
            }
          }

          customElements.define('live-photo', LivePhotoElement);
          window.LivePhotoElement = LivePhotoElement;
        })();
        """#

    static let bytes = Array(javascript.utf8)

    /// The entity tag: the first 16 bytes of the script's SHA-256, in hexadecimal.
    static let entityTag = SHA256.hash(bytes).prefix(16).map { String(format: "%02x", $0) }.joined()
}
