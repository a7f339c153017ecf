#!/usr/bin/env bash
# Network namespaces for the multi-node tests (root only): each node gets a namespace of its own,
# joined by a veth pair to a bridge in the root namespace that carries the servers' address, so a
# node can be cut off (its bridge port set down: its packets vanish, as in a network partition)
# and brought back while it runs.
#
#   scripts/netns-test.sh create DIR NODES  make the bridge and NODES namespaces; prints shell
#                                           assignments: NETNS_SERVER (the bridge's address, where
#                                           the servers listen), NETNS_NAMES (one name per node, for
#                                           `ip netns exec NAME ...`), NETNS_ADDRESSES (the nodes')
#   scripts/netns-test.sh cut DIR N         cut node N (0-based) off: its root-side veth down
#   scripts/netns-test.sh restore DIR N     bring node N back
#   scripts/netns-test.sh delete DIR        remove the veths, the bridge and the namespaces
#
# Names are unique per DIR (a random tag), so runs side by side do not collide; the subnet is a
# /24 in 10.0.0.0/8 that no interface of the machine uses yet. With NETNS_OWNER_PID set at create,
# a watchdog deletes everything once that process is gone (a test process that was killed).
set -euo pipefail

usage() { echo "Usage: $0 create DIR NODES|cut DIR N|restore DIR N|delete DIR" >&2; exit 64; }
[ $# -ge 2 ] || usage
command=$1
dir=$(mkdir -p "$2" && cd "$2" && pwd)
state=$dir/netns.env

fail() { echo "netns-test: $*" >&2; exit 1; }

load() {
  [ -f "$state" ] || fail "no namespaces made for $dir"
  # shellcheck disable=SC1090
  . "$state"
}

# Removes what the state file names; never fails (used after a failed create too).
delete_all() {
  load
  local n
  for n in $(seq 0 $((NETNS_NODES - 1))); do
    ip link del "lp${NETNS_TAG}h$n" 2>/dev/null || true
    ip netns del "livepair-${NETNS_TAG}-$n" 2>/dev/null || true
  done
  ip link del "lp${NETNS_TAG}br" 2>/dev/null || true
  rm -f "$state"
}

case "$command" in
  create)
    [ $# -eq 3 ] || usage
    nodes=$3
    [ "$(id -u)" -eq 0 ] || fail "network namespaces need root (ip netns add)"
    command -v ip >/dev/null || fail "the ip command (iproute2) is missing"
    [ ! -f "$state" ] || fail "namespaces already made for $dir"
    tag=$(od -An -N3 -tx1 /dev/urandom | tr -d ' \n')
    # A /24 of 10.0.0.0/8 that no address of the machine is in.
    used=$(ip -4 -o addr show | awk '{print $4}')
    subnet=""
    for _ in $(seq 1 50); do
      candidate="10.$((RANDOM % 200 + 40)).$((RANDOM % 254 + 1))"
      if ! grep -q "^$candidate\." <<<"$used"; then subnet=$candidate; break; fi
    done
    [ -n "$subnet" ] || fail "no free 10.x.y.0/24 subnet found"
    names=""
    addresses=""
    for n in $(seq 0 $((nodes - 1))); do
      names="$names livepair-$tag-$n"
      addresses="$addresses $subnet.$((n + 10))"
    done
    cat >"$state" <<EOF
NETNS_TAG=$tag
NETNS_NODES=$nodes
NETNS_SERVER=$subnet.1
NETNS_NAMES="${names# }"
NETNS_ADDRESSES="${addresses# }"
EOF
    trap 'delete_all; exit 1' ERR
    ip link add "lp${tag}br" type bridge
    ip addr add "$subnet.1/24" dev "lp${tag}br"
    ip link set "lp${tag}br" up
    for n in $(seq 0 $((nodes - 1))); do
      namespace=livepair-$tag-$n
      ip netns add "$namespace"
      ip link add "lp${tag}h$n" type veth peer name "lp${tag}n$n"
      ip link set "lp${tag}n$n" netns "$namespace"
      ip link set "lp${tag}h$n" master "lp${tag}br"
      ip link set "lp${tag}h$n" up
      ip -n "$namespace" link set lo up
      ip -n "$namespace" addr add "$subnet.$((n + 10))/24" dev "lp${tag}n$n"
      ip -n "$namespace" link set "lp${tag}n$n" up
    done
    trap - ERR
    if [ -n "${NETNS_OWNER_PID:-}" ]; then
      setsid bash -c 'while kill -0 "$0" 2>/dev/null && [ -f "$1" ]; do sleep 1; done
        [ -f "$1" ] && "$2" delete "$3"' "$NETNS_OWNER_PID" "$state" "$(cd "$(dirname "$0")" && pwd)/$(basename "$0")" "$dir" \
        </dev/null >/dev/null 2>&1 &
    fi
    cat "$state"
    ;;
  cut | restore)
    [ $# -eq 3 ] || usage
    load
    [ "$3" -ge 0 ] && [ "$3" -lt "$NETNS_NODES" ] || fail "no node $3 (0 to $((NETNS_NODES - 1)))"
    ip link set "lp${NETNS_TAG}h$3" "$([ "$command" = cut ] && echo down || echo up)"
    ;;
  delete)
    [ -f "$state" ] || exit 0
    delete_all
    ;;
  *) usage ;;
esac
