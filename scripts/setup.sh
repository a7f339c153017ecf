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
  # Reference tools: oracles in tests, baselines in benchmarks. Never used by the product.
  libimage-exiftool-perl
  ffmpeg
  libheif-examples
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "setup: installing ${missing[*]}" >&2
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done" >&2
