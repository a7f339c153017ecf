#!/usr/bin/env bash
# Builds livepair and livepair-media in release mode and installs both into <prefix>/bin, side by
# side (livepair hands the media commands to the livepair-media next to it). The default prefix
# is /usr/local as root, else ~/.local. Each file is copied under a temporary name and renamed into
# place, so a running livepair never sees half a file. Says how to put <prefix>/bin on PATH when
# it is not there yet.
set -euo pipefail

usage() {
  cat <<'TEXT'
Usage: scripts/install.sh [--prefix <dir>] [--from <build-dir>]
  --prefix <dir>      Install into <dir>/bin (default: /usr/local as root, else ~/.local).
  --from <build-dir>  Install the livepair and livepair-media already built in <build-dir>
                      (for example .build/debug) instead of building them in release mode.
TEXT
}

if [ "$(id -u)" -eq 0 ]; then prefix=/usr/local; else prefix="$HOME/.local"; fi
from=""
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) [ $# -ge 2 ] || { echo "Error: Missing value for '--prefix <dir>'." >&2; usage >&2; exit 64; }; prefix=$2; shift 2 ;;
    --prefix=*) prefix=${1#--prefix=}; shift ;;
    --from) [ $# -ge 2 ] || { echo "Error: Missing value for '--from <build-dir>'." >&2; usage >&2; exit 64; }; from=$2; shift 2 ;;
    --from=*) from=${1#--from=}; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "Error: Unknown argument '$1'." >&2; usage >&2; exit 64 ;;
  esac
done

if [ -z "$from" ]; then
  cd "$(dirname "$0")/.."
  echo "install: building livepair and livepair-media (release; the first build takes several minutes)" >&2
  swift build -c release --product livepair >&2
  swift build -c release --product livepair-media >&2
  from=$(swift build -c release --show-bin-path)
fi
for binary in livepair livepair-media; do
  [ -x "$from/$binary" ] || { echo "Error: $from/$binary: not built" >&2; exit 1; }
done

bin="$prefix/bin"
mkdir -p "$bin"
# livepair-media first, so that an installed livepair always finds its partner.
for binary in livepair-media livepair; do
  temporary="$bin/.$binary.installing.$$"
  trap 'rm -f "$temporary"' EXIT
  install -m 755 "$from/$binary" "$temporary"
  mv -f "$temporary" "$bin/$binary"
done
trap - EXIT
echo "installed livepair and livepair-media in $bin"

case ":$PATH:" in
  *":$bin:"*) ;;
  *) echo "install: $bin is not on PATH; add it (for example in ~/.profile): export PATH=\"$bin:\$PATH\"" >&2 ;;
esac
