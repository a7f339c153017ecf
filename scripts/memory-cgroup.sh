# Sourced by scripts/test.sh: runs the tests in a memory cgroup of their own, so the page cache the
# tests fill recycles its own pages instead of taking ever more of the machine's free memory.
#
# Why: the tests write tens of gigabytes (the multi-node tests alone store 3 x 1,000 Live Photos of
# about 5 MB: corpus files, node scratch files, S3 objects). On a virtual machine whose free memory
# goes back to the host (free page reporting, as on this project's CI machines), every page taken
# from free memory costs a fault on the host: writing a new 2 GB file took 11.7 s of kernel time,
# the same write over pages the page cache had just freed 0.44 s. With a limit, the kernel reclaims
# the tests' own clean cache and hands the pages straight back to them. See docs/benchmarks.md
# ("The CI run's CPU budget") for the measurements.
#
#   enter_memory_cgroup LIMIT   move this shell (and so everything it starts later) into a new
#                               memory cgroup limited to LIMIT bytes of memory (anonymous and page
#                               cache together); does nothing, with a note on stderr, where no
#                               memory cgroup can be made (not root, no memory controller)
#   leave_memory_cgroup         move this shell back and remove the cgroup once its last process
#                               has ended (kept, with a note, when one is still there after 10 s)
#
# cgroup v1 (a `memory` hierarchy): memory.limit_in_bytes. cgroup v2: memory.high (reclaim and
# throttle above it, never the out-of-memory killer), under the root when it offers `memory`.

memory_cgroup_dir=""
memory_cgroup_home=""

enter_memory_cgroup() {
  local limit=$1 v1=/sys/fs/cgroup/memory v2=/sys/fs/cgroup name="livepair-tests-$$" root="" home="" control=""
  if [[ -w $v1/cgroup.procs ]]; then
    root=$v1 control=memory.limit_in_bytes
    home=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ { print $3 }' /proc/self/cgroup)
  elif [[ -w $v2/cgroup.procs ]] && grep -qw memory "$v2/cgroup.subtree_control" 2>/dev/null; then
    root=$v2 control=memory.high
    home=$(awk -F: '$1 == "0" { print $3 }' /proc/self/cgroup)
  fi
  if [[ -n $root ]]; then
    memory_cgroup_home=$root$home
    memory_cgroup_dir=$root/$name
    if mkdir "$memory_cgroup_dir" 2>/dev/null &&
      echo "$limit" >"$memory_cgroup_dir/$control" &&
      echo $$ >"$memory_cgroup_dir/cgroup.procs"; then
      echo "scripts/test.sh: the tests run in memory cgroup $memory_cgroup_dir ($control $limit bytes)" >&2
      return 0
    fi
    rmdir "$memory_cgroup_dir" 2>/dev/null
  fi
  memory_cgroup_dir=""
  echo "scripts/test.sh: no memory cgroup could be made (needs root and a memory controller): the tests run without one" >&2
}

leave_memory_cgroup() {
  [[ -z $memory_cgroup_dir ]] && return 0
  echo $$ >"$memory_cgroup_home/cgroup.procs" 2>/dev/null
  # Servers and watchers (exiftool's) end within a second or two of their test process.
  local tries=0
  while [[ -n $(cat "$memory_cgroup_dir/cgroup.procs" 2>/dev/null) ]] && (( tries++ < 100 )); do sleep 0.1; done
  if ! rmdir "$memory_cgroup_dir" 2>/dev/null; then
    echo "scripts/test.sh: memory cgroup $memory_cgroup_dir kept: processes the tests left are still in it ($(tr '\n' ' ' <"$memory_cgroup_dir/cgroup.procs"))" >&2
  fi
  memory_cgroup_dir=""
}
