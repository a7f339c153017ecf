#!/usr/bin/env bash
# The main job on a folder of uploads (default: SampleMedia/): build livepair in release mode,
# then inspect every file, pair the halves, and validate the assets. Exits with validate's status
# (0: no error finding, 1: at least one). SampleMedia/broken/ holds damaged files on purpose, so
# on the samples the status is 1 and their errors are part of the report.
set -uo pipefail
cd "$(dirname "$0")/.."
target="${1:-SampleMedia/}"

swift build -c release --product livepair >/dev/null || exit 1  # inspect, pair, validate need no livepair-media
livepair=.build/release/livepair

echo "== livepair inspect $target"
"$livepair" inspect "$target"
echo
echo "== livepair pair $target"
"$livepair" pair "$target"
echo
echo "== livepair validate $target"
"$livepair" validate "$target"
