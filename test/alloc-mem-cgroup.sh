#!/usr/bin/env bash
# alloc-mem-cgroup: in a memory cgroup of 512 MiB, MPI_Alloc_mem of 2 GiB gives MPI_ERR_NO_MEM (no OOM kill) and 64 MiB per rank still works, and a rank taking 1 MiB blocks until refused is refused, not killed; skipped where no child memory cgroup can be made.
# shmpi-test: timeout=60
# shmpi-test-skip tsan: ThreadSanitizer's shadow of the memory a rank touches is charged to the 512 MiB cgroup too, after the library's check of what the cgroup has left, so the rank that takes 1 MiB blocks up to the limit is killed by the cgroup's OOM killer instead of refused (make check-tsan, 2026-11-29).
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"
HOG=$TEST_BIN/memhog

# A child of this process's memory cgroup, v1 or v2, with a limit.
cg=
make_cgroup() { # bytes
    local p dir file
    if p=$(grep -m1 -E '^[0-9]+:([^:]*,)?memory(,[^:]*)?:' /proc/self/cgroup); then
        dir=/sys/fs/cgroup/memory${p##*:}; file=memory.limit_in_bytes
    elif p=$(grep -m1 '^0::' /proc/self/cgroup); then
        dir=/sys/fs/cgroup${p#0::}; file=memory.max
    else
        return 1
    fi
    dir=${dir%/}/shmpi-test-$$
    mkdir "$dir" 2>/dev/null || return 1
    cg=$dir
    [ -e "$cg/$file" ] && echo "$1" >"$cg/$file" 2>/dev/null
}
trap 'cleanup; [ -n "$cg" ] && rmdir "$cg" 2>/dev/null' EXIT

if ! make_cgroup $((512 << 20)); then
    pass "skipped: cannot make a memory cgroup with a limit here (needs root and a writable memory controller)"
fi
echo "cgroup: $cg"
# mpirun and its ranks run in the cgroup (the shell joins it, then execs)
in_cgroup() { # mpirun-args...
    # shellcheck disable=SC2016
    start_job sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' \
        sh "$cg" "$MPIRUN" "$@"
    finish_job
}

in_cgroup -np 2 "$HOG" 2048 64
expect_status 0
expect_lines "$OUT" '^rank [01]: no-mem$' 2
expect_lines "$OUT" '^rank [01] ok$' 2

# Small blocks, each under the size that is always checked, up to the
# limit: the last ones are checked one by one.  One rank: ranks that ask
# at the same moment each see the same last free MiB (memlimit.c).
in_cgroup -np 1 "$HOG" 0 1 1024
expect_status 0
expect_lines "$OUT" '^rank 0: [0-9]+ MiB in chunks, then no-mem$'
mib=$(sed -n 's/^rank 0: \([0-9]*\) MiB in chunks.*/\1/p' "$OUT")
[ "$mib" -ge 256 ] || fail "only $mib MiB of 512 were allocated before MPI_ERR_NO_MEM"
expect_shm_clean
pass
