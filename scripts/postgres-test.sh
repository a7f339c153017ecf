#!/usr/bin/env bash
# Starts and stops a throwaway PostgreSQL 15 server for tests and benchmarks (never for real data:
# fsync is off). Everything lives in DIR: the cluster in DIR/data, the unix socket in DIR/socket
# (no TCP port: the port number, chosen free at the first start, only names the socket), the server log in DIR/server.log. initdb and pg_ctl refuse to run as root, so as
# root they run as the `postgres` user (DIR is then owned by postgres).
#
#   scripts/postgres-test.sh start DIR     # initdb (first time) + start; prints the connection URI
#   scripts/postgres-test.sh url DIR       # prints the connection URI
#   scripts/postgres-test.sh restart DIR   # immediate stop, then start (clients must reconnect)
#   scripts/postgres-test.sh stop DIR      # immediate stop (the files stay; remove DIR yourself)
#
# The URI: postgresql://postgres@/livepair?host=DIR/socket&port=PORT (trust authentication on the
# socket; PORT is the server's own port number).
#
# With LIVEPAIR_PG_OWNER_PID=PID at start, a watchdog stops the server and removes DIR once that
# process is gone (a test process killed before it could stop its server; DIR is then its
# throwaway folder). The watchdog ends by itself when DIR is removed.
#
# With LIVEPAIR_PG_LISTEN=ADDRESS at the first start, the server also listens on TCP at that address
# (on a free port; restarts keep both) and trusts clients of the subnets it is directly connected to
# (`samenet`): the network-namespace tests reach it from other namespaces. `tcp DIR` then prints
# postgresql://postgres@ADDRESS:PORT/livepair.
set -euo pipefail

usage() { echo "Usage: $0 start|url|tcp|restart|stop DIR" >&2; exit 64; }
[ $# -eq 2 ] || usage
command=$1
dir=$2
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
bin=${LIVEPAIR_PG_BIN:-/usr/lib/postgresql/15/bin}
data=$dir/data
socket=$dir/socket
log=$dir/server.log
database=livepair

if [ ! -x "$bin/pg_ctl" ]; then
  echo "postgres-test: $bin/pg_ctl not found: install postgresql-15 (scripts/setup.sh)" >&2
  exit 1
fi
if [ ${#socket} -gt 90 ]; then
  echo "postgres-test: $socket is too long for a unix socket path; use a shorter DIR" >&2
  exit 1
fi

as_owner=()
if [ "$(id -u)" -eq 0 ]; then as_owner=(runuser -u postgres --); fi

# The TCP address and port, kept in DIR from the first start (no file: socket only).
listen=""
port=5432
if [ -f "$dir/listen" ]; then read -r listen port <"$dir/listen"; fi
# A socket-only server still has a port number: it names the socket and keys the server's System V
# shared memory. Servers started side by side (one per test process) each get a port number of
# their own, a free loopback port at the first start, so they never contend for one key.
if [ -z "$listen" ] && [ -f "$dir/port" ]; then read -r port <"$dir/port"; fi
if [ -z "$listen" ] && [ ! -f "$dir/port" ] && [ -z "${LIVEPAIR_PG_LISTEN:-}" ] && [ "$command" = start ]; then
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])') \
    || { echo "postgres-test: cannot choose a port number" >&2; exit 1; }
  echo "$port" >"$dir/port"
fi
if [ -z "$listen" ] && [ -n "${LIVEPAIR_PG_LISTEN:-}" ] && [ "$command" = start ]; then
  listen=$LIVEPAIR_PG_LISTEN
  port=$(python3 -c 'import socket, sys; s = socket.socket(); s.bind((sys.argv[1], 0)); print(s.getsockname()[1])' "$listen") \
    || { echo "postgres-test: cannot bind a port on $listen" >&2; exit 1; }
  echo "$listen $port" >"$dir/listen"
fi

url() { echo "postgresql://postgres@/$database?host=$socket$([ "$port" = 5432 ] || echo "&port=$port")"; }
tcp_url() {
  [ -n "$listen" ] || { echo "postgres-test: $dir was started without LIVEPAIR_PG_LISTEN" >&2; exit 1; }
  echo "postgresql://postgres@$listen:$port/$database"
}

start() {
  mkdir -p "$socket"
  if [ "$(id -u)" -eq 0 ]; then chown postgres "$dir" "$socket"; fi
  if [ ! -f "$data/PG_VERSION" ]; then
    "${as_owner[@]}" "$bin/initdb" -D "$data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
      || { echo "postgres-test: initdb failed:" >&2; cat "$dir/initdb.log" >&2; exit 1; }
  fi
  if [ -n "$listen" ] && ! grep -q '^host all all samenet trust' "$data/pg_hba.conf"; then
    echo 'host all all samenet trust' | "${as_owner[@]}" tee -a "$data/pg_hba.conf" >/dev/null
  fi
  if ! "${as_owner[@]}" "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; then
    "${as_owner[@]}" "$bin/pg_ctl" -D "$data" -l "$log" -w -t 30 start \
      -o "-c listen_addresses='$listen' -p $port -k $socket -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
      >/dev/null || { echo "postgres-test: the server did not start:" >&2; tail -20 "$log" >&2; exit 1; }
  fi
  if ! "$bin/psql" -h "$socket" -p "$port" -U postgres -d postgres -Atqc "SELECT 1 FROM pg_database WHERE datname = '$database'" | grep -q 1; then
    "$bin/createdb" -h "$socket" -p "$port" -U postgres "$database"
  fi
  if [ "$command" = start ] && [ -n "${LIVEPAIR_PG_OWNER_PID:-}" ]; then watch_owner "$LIVEPAIR_PG_OWNER_PID"; fi
  url
}

# Stops the server and removes DIR once process $1 is gone, from a session of its own that holds
# none of this script's output.
watch_owner() {
  local owner=$1 self
  self=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")
  setsid bash -c 'while kill -0 "$0" 2>/dev/null && [ -d "$1" ]; do sleep 1; done
    if [ -d "$1" ]; then "$2" stop "$1"; rm -rf "$1"; fi' "$owner" "$dir" "$self" </dev/null >/dev/null 2>&1 &
}

stop() {
  if [ -f "$data/PG_VERSION" ] && "${as_owner[@]}" "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; then
    "${as_owner[@]}" "$bin/pg_ctl" -D "$data" -m immediate -w stop >/dev/null
  fi
}

case $command in
  start) start ;;
  url) url ;;
  tcp) tcp_url ;;
  restart) stop; start >/dev/null ;;
  stop) stop ;;
  *) usage ;;
esac
