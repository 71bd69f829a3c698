#!/usr/bin/env bash
# p2p-small-shm: with a /dev/shm of 256 KiB (a tmpfs in a mount namespace), the sends of 16 ranks that need their outbox's first pages and find no room fail with MPI_ERR_NO_MEM and a line saying how many bytes and how much /dev/shm has, under MPI_ERRORS_RETURN the others' messages still arrive, under the default handler the job ends with that line, no signal, nothing left behind; skipped where unshare -m is not permitted.
# shmpi-test: timeout=90
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"
HOG=$TEST_BIN/p2phog

if ! unshare -m true 2>/dev/null; then
    pass "skipped: unshare -m is not permitted here (needs root or user namespaces)"
fi

# In a mount namespace of its own, over /dev/shm: a tmpfs of 256 KiB,
# then mpirun.  The arena's fixed part and world's collective head take
# a few pages; each rank's first send to a cold peer reserves 64 KiB of
# its outbox, so only a few ranks find the room.
in_small_shm() { # mpirun-args...
    # shellcheck disable=SC2016
    start_job unshare -m sh -c 'mount -t tmpfs -o size=256k tmpfs /dev/shm || exit 99
                                exec "$@"' sh "$MPIRUN" "$@"
    finish_job
    [ "$STATUS" != 99 ] || pass "skipped: cannot mount a tmpfs on /dev/shm here"
}

line='MPI_Send: cannot reserve [0-9]+ bytes in /dev/shm for this rank.s outbox \(No space left on device: [0-9]+ bytes free of [0-9]+\)'

in_small_shm -np 16 "$HOG" return
expect_status 0
expect_lines "$OUT" '^rank [0-9]+ ok$' 16
n=$(grep -Ec '^rank [0-9]+: no-mem$' "$OUT")
[ "$n" -ge 1 ] || fail "no send failed with MPI_ERR_NO_MEM in a /dev/shm of 256 KiB"
[ "$n" -le 15 ] || fail "every send failed: the test's /dev/shm is too small to show that the others go on"
expect_no_lines "$ERR" 'signal|SIGBUS'

in_small_shm -np 16 "$HOG" fatal
[ "$STATUS" != 0 ] || fail "the job exited 0 although a send failed under MPI_ERRORS_ARE_FATAL"
[ "$(grep -Ec -- "$line.*MPI_ERR_NO_MEM" "$ERR")" -ge 1 ] ||
    fail "no line says which send found /dev/shm full under the default handler"
expect_no_lines "$ERR" 'signal|SIGBUS'
expect_shm_clean
pass
