#!/usr/bin/env bash
# alloc-mem-small-shm: with a tiny /dev/shm (a tmpfs of 8 MiB in a mount namespace), MPI_Alloc_mem of 128 MiB per rank works to its last page (its memfd memory is not on /dev/shm), and a /dev/shm too small for the arena fails at launch with one line, no signal; skipped where unshare -m is not permitted.
# shmpi-test: timeout=60
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"
HOG=$TEST_BIN/memhog

if ! unshare -m true 2>/dev/null; then
    pass "skipped: unshare -m is not permitted here (needs root or user namespaces)"
fi

# In a mount namespace of its own (private mounts), over /dev/shm: a
# tmpfs of the given size, then mpirun.
in_small_shm() { # size mpirun-args...
    # shellcheck disable=SC2016
    start_job unshare -m sh -c 'mount -t tmpfs -o "size=$1" tmpfs /dev/shm || exit 99
                                shift; exec "$@"' sh "$1" "$MPIRUN" "${@:2}"
    finish_job
    [ "$STATUS" != 99 ] || pass "skipped: cannot mount a tmpfs on /dev/shm here"
}

in_small_shm 8m -np 2 "$HOG" 0 128
expect_status 0
expect_lines "$OUT" '^rank [01] ok$' 2

in_small_shm 4k -np 4 "$HOG" 0 1
expect_status 1
expect_lines "$ERR" '^mpirun: cannot reserve [0-9]+ bytes in /dev/shm'
expect_no_lines "$ERR" 'signal'
expect_shm_clean
pass
