#!/usr/bin/env bash
# The main job on a folder of uploads (default: SampleMedia/): build livepair in release mode,
# then inspect every file, pair the halves, and validate the assets. Exits with validate's status
# (0: no error finding, 1: at least one), or 2 when the build fails. SampleMedia/broken/ holds
# damaged files on purpose, so on the samples the status is 1 and their errors are part of the
# report.
set -uo pipefail
cd "$(dirname "$0")/.."
target="${1:-SampleMedia/}"

# Build first, in the open: the first release build takes a few minutes, and its progress and
# every diagnostic (swift build writes them to standard output) go to standard error, so the
# report on standard output stays the report.
echo "main-job: building livepair (release; the first build takes 3-5 minutes)" >&2
# inspect, pair and validate need only livepair, not livepair-media.
if ! swift build -c release --product livepair >&2; then
  echo "main-job: the build failed (errors above)" >&2
  exit 2
fi
livepair=.build/release/livepair

echo "== livepair inspect $target"
"$livepair" inspect "$target"
echo
echo "== livepair pair $target"
"$livepair" pair "$target"
echo
echo "== livepair validate $target"
"$livepair" validate "$target"
