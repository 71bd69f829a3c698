#!/usr/bin/env bash
# arena-small-shm: with a /dev/shm of 3 MiB (a tmpfs in a mount namespace), communicators whose allgathers fill it get MPI_ERR_NO_MEM at the collective that needed the room, under MPI_ERRORS_RETURN the job goes on and works again once they are freed, under the default handler it ends with one line saying how much was needed and how much /dev/shm has, no signal, nothing left behind; skipped where unshare -m is not permitted.
# shmpi-test: timeout=90
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"
HOG=$TEST_BIN/collhog

if ! unshare -m true 2>/dev/null; then
    pass "skipped: unshare -m is not permitted here (needs root or user namespaces)"
fi

# In a mount namespace of its own (private mounts), over /dev/shm: a
# tmpfs of 3 MiB, then mpirun.  Small rings (16 KiB a pair) leave the
# room to the collective areas: each dup takes one, whose slots grow to
# 2 x 32 KiB per rank with an allgather of 32 KiB, so that some dup
# finds /dev/shm full after a few dozen.
in_small_shm() { # mpirun-args...
    # shellcheck disable=SC2016
    start_job unshare -m sh -c 'mount -t tmpfs -o size=3m tmpfs /dev/shm || exit 99
                                exec "$@"' sh env SHMPI_RING_KB=16 "$MPIRUN" "$@"
    finish_job
    [ "$STATUS" != 99 ] || pass "skipped: cannot mount a tmpfs on /dev/shm here"
}

in_small_shm -np 4 "$HOG" fill 32 return
expect_status 0
expect_lines "$OUT" '^rank [0-3] ok$' 4
n=$(grep -Ec '^rank [0-3]: no-mem in round [0-9]+$' "$OUT")
[ "$n" -ge 1 ] || fail "no rank reported MPI_ERR_NO_MEM"
expect_no_lines "$ERR" 'signal|SIGBUS'

in_small_shm -np 4 "$HOG" fill 32 fatal
[ "$STATUS" != 0 ] || fail "the job exited 0 although a collective failed under MPI_ERRORS_ARE_FATAL"
expect_lines "$ERR" 'MPI_Allgather: cannot reserve [0-9]+ bytes in /dev/shm for this rank.s slot of the collective area \(No space left on device: [0-9]+ bytes free of [0-9]+\).*MPI_ERR_NO_MEM'
expect_no_lines "$ERR" 'signal|SIGBUS'
expect_shm_clean
pass
