#!/usr/bin/env bash
# The multi-node scenarios of docs/deployment.md, by hand: starts its own PostgreSQL
# (scripts/postgres-test.sh) and SeaweedFS (scripts/seaweedfs-test.sh) in a temporary folder, then
# runs four `livepair import --files-from - --json-lines` nodes on one catalog and one S3 bucket,
# fed PAIRS Live Photos (default 1000) whose halves go to different nodes at about the same moment,
# with retries and byte-identical duplicates: plain, two nodes killed (SIGKILL), PostgreSQL
# restarted mid-run, one node cut off from the network mid-upload (netcut: each node in a network
# namespace of its own, scripts/netns-test.sh; needs root). Exits 0 when every scenario ends with exactly PAIRS Live Photos, nothing
# pending, each resource stored once and the identifiers and digests the corpus says.
#
#   swift build -c release            # the livepair and livepair-media it runs
#   scripts/multi-node.sh [--pairs N] [--scenarios plain,kill,restart,netcut] [--jobs N] [--seed N]
#
# LIVEPAIR (default .build/release/livepair) picks the executable; the servers and the corpus
# (about 4.6 MB per pair) go to a folder under TMPDIR, removed at the end (KEEP=1 keeps it).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
livepair=${LIVEPAIR:-$root/.build/release/livepair}
if [ ! -x "$livepair" ]; then
  echo "multi-node: $livepair is missing: run 'swift build -c release' (or set LIVEPAIR)" >&2
  exit 1
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/lp-multi.XXXXXX")
chmod 755 "$work"  # as root, the PostgreSQL server runs as postgres and must reach its folder
pg_dir=$work/pg
s3_dir=$work/s3
netns_dir=$work/netns
cleanup() {
  "$root/scripts/postgres-test.sh" stop "$pg_dir" >/dev/null 2>&1 || true
  "$root/scripts/seaweedfs-test.sh" stop "$s3_dir" >/dev/null 2>&1 || true
  "$root/scripts/netns-test.sh" delete "$netns_dir" >/dev/null 2>&1 || true
  if [ "${KEEP:-0}" != 1 ]; then rm -rf "$work"; else echo "multi-node: kept $work" >&2; fi
}
trap cleanup EXIT

# The netcut scenario (in the default list) puts the nodes in network namespaces joined by a bridge;
# the servers then listen on the bridge's address (PostgreSQL on its unix socket as well).
scenarios=plain,kill,restart,netcut
previous=""
for argument in "$@"; do
  if [ "$previous" = --scenarios ]; then scenarios=$argument; fi
  case $argument in --scenarios=*) scenarios=${argument#--scenarios=} ;; esac
  previous=$argument
done
netns_arguments=()
if [[ ",$scenarios," == *,netcut,* ]]; then
  netns_settings=$("$root/scripts/netns-test.sh" create "$netns_dir" 4)
  eval "$netns_settings"
  export LIVEPAIR_PG_LISTEN=$NETNS_SERVER SEAWEEDFS_IP=$NETNS_SERVER
fi
pg_url=$("$root/scripts/postgres-test.sh" start "$pg_dir")
if [ -n "${LIVEPAIR_PG_LISTEN:-}" ]; then
  netns_arguments=(--pg-tcp-url "$("$root/scripts/postgres-test.sh" tcp "$pg_dir")" --netns-script "$root/scripts/netns-test.sh"
    --netns-dir "$netns_dir" --netns-names "$NETNS_NAMES")
fi
# The test server runs with synchronous_commit off; the restart scenario stops it at once, which
# would lose commits a production server keeps: on for this database.
/usr/lib/postgresql/15/bin/psql "$pg_url" -Atqc "ALTER DATABASE livepair SET synchronous_commit = on"
"$root/scripts/seaweedfs-test.sh" start "$s3_dir" >/dev/null
eval "$("$root/scripts/seaweedfs-test.sh" env "$s3_dir")"
echo "PostgreSQL: $pg_url"
echo "SeaweedFS S3: $LIVEPAIR_S3_ENDPOINT"
python3 "$root/scripts/multi-node.py" --root "$root" --work "$work" --livepair "$livepair" \
  --pg-url "$pg_url" --pg-dir "$pg_dir" --pg-script "$root/scripts/postgres-test.sh" "${netns_arguments[@]}" "$@"
