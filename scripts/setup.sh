#!/usr/bin/env bash
# Installs every Debian package LivePair needs to build, test and benchmark.
# Idempotent: when everything is already installed it returns in well under a second
# without touching the network.
set -euo pipefail

packages=(
  pkg-config
  libavformat-dev libavcodec-dev libavutil-dev libswscale-dev
  libturbojpeg0-dev
  libexif-dev
  libheif-dev
  libsqlite3-dev
  libssl-dev
  # The server catalog: libpq to build against, PostgreSQL 15 for the tests and benchmarks.
  libpq-dev postgresql-15
  libmicrohttpd-dev
  # Reference tools: oracles in tests, baselines in benchmarks. Never used by the product.
  libimage-exiftool-perl
  ffmpeg
  libheif-examples
  # The real-browser test of `livepair serve`'s web page (driven by Playwright, below).
  chromium
  python3-venv
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  echo "setup: done" >&2
fi

# Playwright (pinned with hashes) in a venv at a fixed shared place, for the browser test of the
# web page (Tests/LivePairServerTests/browser/live_photo_page.py). Skipped when already installed.
tools_dir="${LIVEPAIR_TOOLS_DIR:-/opt/livepair-tools}"
browser_venv="$tools_dir/venv-browser"
browser_requirements="$(cd "$(dirname "$0")" && pwd)/requirements-browser.txt"
if ! "$browser_venv/bin/python" -c 'import playwright' 2>/dev/null; then
  echo "setup: installing Playwright into $browser_venv" >&2
  "${sudo_cmd[@]}" mkdir -p "$tools_dir"
  "${sudo_cmd[@]}" python3 -m venv "$browser_venv"
  "${sudo_cmd[@]}" "$browser_venv/bin/pip" install -q --require-hashes --only-binary=:all: -r "$browser_requirements"
fi
