#!/usr/bin/env bash
# The main job on a folder of uploads (default: SampleMedia/): build livepair and livepair-media
# in release mode (every command works after it: inspect, pair, validate, and the media commands
# make, preview, import, serve ... that livepair hands to livepair-media), then inspect every file,
# pair the halves, and validate the assets. Exits with validate's status (0: no error finding, 1:
# at least one), or 2 when the build fails. SampleMedia/broken/ holds damaged files on purpose, so
# on the samples the status is 1 and their errors are part of the report. scripts/install.sh puts
# both executables on PATH.
set -uo pipefail
cd "$(dirname "$0")/.."
target="${1:-SampleMedia/}"

# Build first, in the open: the first release build takes several minutes, and its progress and
# every diagnostic (swift build writes them to standard output) go to standard error, so the
# report on standard output stays the report.
echo "main-job: building livepair and livepair-media (release; the first build takes several minutes)" >&2
for product in livepair livepair-media; do
  if ! swift build -c release --product "$product" >&2; then
    echo "main-job: the build of $product failed (errors above)" >&2
    exit 2
  fi
done
echo "main-job: built .build/release/livepair and .build/release/livepair-media (scripts/install.sh puts them on PATH)" >&2
livepair=.build/release/livepair

echo "== livepair inspect $target"
"$livepair" inspect "$target"
echo
echo "== livepair pair $target"
"$livepair" pair "$target"
echo
echo "== livepair validate $target"
"$livepair" validate "$target"
