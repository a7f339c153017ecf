#!/usr/bin/env bash
# Runs every test, in several test processes side by side, each even when another failed, and
# ends with one line `N passed, N failed` (tests, summed over the runs) and a status: 0 when
# every run passed, 1 otherwise (a failed test, or a run that crashed or ended without its summary).
#
#   scripts/test.sh                 build the tests, then run them
#   scripts/test.sh --skip-build    run what `swift build --build-tests` already built
#
# Why several processes, and a wider pool: Swift's concurrency pool has one thread per core (two
# here), and Swift Testing runs each test on it, so two tests that wait (on a child process, a
# server, a socket) stall every other test of their process while the cores sit idle. Each test
# process therefore runs its jobs on more threads (see shard_threads below and
# Tests/TestPoolWidening), and each shard below is a process of its own, running one part of the
# tests (the S3 and PostgreSQL tests start their own servers, each process its own):
#   server       LivePairServerTests
#   cli          LivePairCLITests
#   library      LivePairLibraryTests but the multi-node, network-cut and lock-cut tests
#   library-nodes  those (node processes, serialized: minutes each)
#   core         LivePairTests (identification, pairing, validation, loading, packaging, editing)
#   formats-media  every other test target (formats, media, SQLite, PostgreSQL, S3, crypto)
#   library-on-s3  the library tests again with their resources on S3 (LIVEPAIR_TEST_STORE=s3: each
#                directory library keeps its files under a prefix of a SeaweedFS bucket), without
#                the multi-node and network-cut tests and the suites that do not use that store
#                (store_independent below).
# LIVEPAIR_TEST_SHARDS="server cli" runs only those shards. Each run's output goes to a log in
# $LIVEPAIR_TEST_LOGS (a fresh temporary directory unless set), printed whole when the run ends;
# the last lines name the folder. As root, the shards run in a memory cgroup limited to
# LIVEPAIR_TEST_MEMORY_LIMIT bytes (default 12 GiB; "none": no cgroup), see scripts/memory-cgroup.sh.
set -uo pipefail
cd "$(dirname "$0")/.."

build=()
for argument in "$@"; do
  case "$argument" in
    --skip-build) build=(--skip-build) ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "scripts/test.sh: unknown option $argument (see --help)" >&2; exit 2 ;;
  esac
done

logs=${LIVEPAIR_TEST_LOGS:-$(mktemp -d -t livepair-tests.XXXXXX)}
mkdir -p "$logs"
# The tests' temporary files (TMPDIR) go into a folder of this run, removed when it ends, so that
# what tests leave behind does not pile up in /tmp: Foundation's atomic writes leave an empty
# TemporaryDirectory.XXXXXX each, SeaweedFS writes its glog files there, and a test that fails or
# is killed keeps its folders. LIVEPAIR_TEST_KEEP_TMP=1 keeps it (the last lines name it).
# PostgreSQL's test folders stay /tmp/lp-pg* (short, for the socket path) and go with their
# servers (scripts/postgres-test.sh).
scratch=$(mktemp -d -t livepair-tmp.XXXXXX)
export TMPDIR=$scratch
leave_scratch() {
  if [[ ${LIVEPAIR_TEST_KEEP_TMP:-} == 1 ]]; then
    echo "scripts/test.sh: the tests' temporary files are in $scratch" >&2
  else
    rm -rf "$scratch"
  fi
}
trap leave_scratch EXIT
passed=0
failed=0
runs_failed=()

# Sums one run's outcome from its log: Swift Testing's summary line
#   "✔ Test run with 774 tests in 60 suites passed after 595.2 seconds."
#   "✘ Test run with 774 tests in 60 suites failed after 601.0 seconds with 3 issues."
# its "✘ Test NAME failed after ..." line for each failed test and "➜ Test NAME skipped" for
# each skipped one; and XCTest's "Executed N tests, with M failures" (the package has no XCTest
# tests today; counted should one appear). A run that died before its summary (a crash) counts
# the tests its lines say ended, plus one failure; a run whose status is not 0 without a failed
# test (a build that failed) counts as one failure.
count_run() {
  local name=$1 status=$2 log=$3
  local summary total=0 failures=0 skipped=0 executed xc_total=0 xc_failed=0
  summary=$(grep -aE '^[^ ]+ Test run with [0-9]+ tests? ' "$log" | tail -n 1)
  failures=$(grep -aE '^[^ ]+ Test .* failed after ' "$log" | grep -avcE '^[^ ]+ Test (run with|case passing) ')
  skipped=$(grep -aE '^[^ ]+ Test .* skipped(\.|:)' "$log" | grep -avcE ' (passed|failed) after ')
  if [[ -n $summary ]]; then
    total=$(sed -E 's/^[^ ]+ Test run with ([0-9]+) tests? .*/\1/' <<<"$summary")
  else
    # No summary (the process died): the tests that ended before, as their own lines say.
    total=$(( $(grep -aE '^[^ ]+ Test .* passed after ' "$log" | grep -avcE '^[^ ]+ Test (run with|case passing) ') + failures + skipped ))
  fi
  executed=$(grep -aE 'Executed [0-9]+ tests?, with [0-9]+ failures?' "$log" | tail -n 1)
  if [[ -n $executed ]]; then
    xc_total=$(sed -E 's/.*Executed ([0-9]+) tests?.*/\1/' <<<"$executed")
    xc_failed=$(sed -E 's/.*with ([0-9]+) failures?.*/\1/' <<<"$executed")
  fi
  passed=$(( passed + total - failures - skipped + xc_total - xc_failed ))
  failed=$(( failed + failures + xc_failed ))
  if (( status != 0 )) && [[ -z $summary ]]; then
    echo "scripts/test.sh: $name ended with status $status and no Swift Testing summary (crashed?): counted as one more failure" >&2
    failed=$(( failed + 1 ))
  elif (( status != 0 && failures + xc_failed == 0 )); then
    echo "scripts/test.sh: $name ended with status $status although no test failed: counted as one failure" >&2
    failed=$(( failed + 1 ))
  fi
  if (( status != 0 || failures + xc_failed > 0 )); then runs_failed+=("$name"); fi
}

# How many test cases of one process run at once: Swift Testing's default unless
# LIVEPAIR_TEST_WIDTH says otherwise (the pool still has one thread per core).
width=()
if [[ -n ${LIVEPAIR_TEST_WIDTH:-} ]]; then width=(--experimental-maximum-parallelization-width "$LIVEPAIR_TEST_WIDTH"); fi

if (( ${#build[@]} == 0 )); then
  echo "scripts/test.sh: swift build --build-tests" >&2
  if ! swift build --build-tests; then
    echo "scripts/test.sh: the build failed" >&2
    echo "0 passed, 1 failed"
    exit 1
  fi
fi
bin_path=$(swift build --show-bin-path)
tests="$bin_path/LivePairPackageTests.xctest"
if [[ ! -x $tests ]]; then
  echo "scripts/test.sh: $tests is missing: build it with \`swift build --build-tests\` or run without --skip-build" >&2
  echo "0 passed, 1 failed"
  exit 1
fi

# The multi-node, network-cut and catalog-lock-cut tests hold a thread for minutes each (node
# processes): they run in a process of their own.
library_nodes='LivePairLibraryTests\.(MultiNodeTests|NetworkCutTests|CatalogLockCutTests)'
# The library suites that never open a library through the test support's directory-library
# route (makeLibrary, openDirectoryLibrary), the one LIVEPAIR_TEST_STORE=s3 moves onto S3: the
# stores' own tests (the S3 ones start their own server either way), the PostgreSQL catalog's, and
# the ingestion suites (IngestFixture opens its directory library itself). In library-on-s3 they
# would repeat the library shard's runs exactly, so that shard skips them; so, likewise, do the
# PostgreSQL cases of the parameterized tests (CatalogKind.underTest). A new suite runs in both.
store_independent='LivePairLibraryTests\.(Storage[A-Za-z0-9]*Tests|ConnectionTextTests|PostgresCatalogTests|IngestTests|IngestPolicyTests|IngestGroupCommitTests|IngestEveryOrderTests|IngestMoveTests|IngestUploadIDTests|IngestS3RequestTests|IngestorSpecialFileTests|CrashTests|FailureCleanupTests)'
declare -A shard_arguments=(
  [server]="--filter LivePairServerTests"
  [cli]="--filter LivePairCLITests"
  [library]="--filter LivePairLibraryTests --skip $library_nodes"
  [library-nodes]="--filter $library_nodes"
  [core]="--filter LivePairTests"
  [formats-media]="--skip LivePairServerTests|LivePairCLITests|LivePairLibraryTests|LivePairTests"
  [library-on-s3]="--filter LivePairLibraryTests --skip $library_nodes|$store_independent"
)
# How many threads run each shard's test jobs (Tests/TestPoolWidening), unless
# LIVEPAIR_TEST_POOL_THREADS sets one number for all: the shards whose tests mostly wait (on
# `livepair` processes, servers, catalogs) get six, so their waits overlap; the ones whose tests
# mostly compute get three, so they do not crowd the cores the others' waiting tests wake on; the
# node tests get five, so their three multi-node scenarios and two network cuts all run at once.
declare -A shard_threads=(
  [server]=4 [cli]=6 [library]=6 [library-nodes]=5 [core]=3 [formats-media]=3 [library-on-s3]=6
)
# Longest first, so the slowest shard starts at once.
selected=(${LIVEPAIR_TEST_SHARDS:-library-nodes core formats-media library library-on-s3 server cli})

# Runs one shard's process (its output in $logs/NAME.log) and writes its status next to it.
run_shard() {
  local name=$1 store=()
  [[ $name == library-on-s3 ]] && store=(LIVEPAIR_TEST_STORE=s3)
  local threads=${LIVEPAIR_TEST_POOL_THREADS-${shard_threads[$name]}}
  # shellcheck disable=SC2086 # the arguments are words on purpose
  env "${store[@]}" ${threads:+LIVEPAIR_TEST_POOL_THREADS=$threads} "$tests" --testing-library swift-testing "${width[@]}" ${shard_arguments[$name]} \
    >"$logs/$name.log" 2>&1
  echo $? >"$logs/$name.status"
}

# The tests' processes and the servers they start run in a memory cgroup of their own
# (scripts/memory-cgroup.sh says why): LIVEPAIR_TEST_MEMORY_LIMIT bytes, or "none" for no cgroup.
# The default is 12 GiB, twice the most their own memory was seen to reach (5.8 GiB of anonymous
# memory: seven test processes, six SeaweedFS servers, PostgreSQL, Chromium; a 6 GiB limit had
# the out-of-memory killer end a test process), and no cgroup on a machine with under 16 GiB.
source scripts/memory-cgroup.sh
memory_limit=${LIVEPAIR_TEST_MEMORY_LIMIT:-}
if [[ -z $memory_limit ]]; then
  memory_total=$(awk '/^MemTotal:/ { printf "%.0f", $2 * 1024 }' /proc/meminfo)
  memory_limit=$(( 12 * 1024 ** 3 ))
  (( memory_total < 16 * 1024 ** 3 )) && memory_limit=none
fi
if [[ $memory_limit != none ]]; then
  enter_memory_cgroup "$memory_limit"
  trap 'leave_memory_cgroup; leave_scratch' EXIT
fi

declare -A pids=()
for name in "${selected[@]}"; do
  if [[ -z ${shard_arguments[$name]:-} ]]; then
    echo "scripts/test.sh: no shard named $name (shards: ${!shard_arguments[*]})" >&2
    exit 2
  fi
  echo "scripts/test.sh: $name: started (${shard_arguments[$name]})" >&2
  run_shard "$name" &
  pids[$name]=$!
done
started=$SECONDS
# Prints each shard's log as it ends, then counts it.
remaining=("${selected[@]}")
while (( ${#remaining[@]} > 0 )); do
  wait -n "${pids[@]}" 2>/dev/null
  no_children=$?
  still=()
  for name in "${remaining[@]}"; do
    # A shard whose process is gone without its status (killed from outside): status 99.
    if [[ ! -f $logs/$name.status ]] && (( no_children == 127 )); then echo 99 >"$logs/$name.status"; fi
    if [[ -f $logs/$name.status ]]; then
      cat "$logs/$name.log"
      count_run "$name" "$(cat "$logs/$name.status")" "$logs/$name.log"
      echo "scripts/test.sh: $name: ended after $(( SECONDS - started )) s with status $(cat "$logs/$name.status")" >&2
    else
      still+=("$name")
    fi
  done
  remaining=("${still[@]}")
done

# The failures again, last, so the end of the output (all a CI page may keep) names them: each
# failed run's failed tests and the issues Swift Testing recorded ("✘ Test NAME recorded an issue
# at FILE:LINE: ..." and the lines that continue it), and the last lines of a run that crashed.
for name in "${runs_failed[@]}"; do
  echo "scripts/test.sh: $name failed:" >&2
  if grep -aqE '^[^ ]+ Test .* failed after ' "$logs/$name.log"; then
    grep -aE '^[^ ]+ Test .* (recorded an issue|failed after )|^[^ ]+ Suite .* failed after ' "$logs/$name.log" \
      | grep -avE '^[^ ]+ Test run with ' | head -n 40 | cut -c1-600 >&2
  else
    tail -n 20 "$logs/$name.log" | cut -c1-600 >&2
  fi
done
echo "scripts/test.sh: logs in $logs${runs_failed[*]:+; failed: ${runs_failed[*]}}" >&2
echo "$passed passed, $failed failed"
(( failed == 0 && ${#runs_failed[@]} == 0 ))
