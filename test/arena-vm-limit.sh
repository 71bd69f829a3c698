#!/usr/bin/env bash
# arena-vm-limit: jobs of 16 and 64 ranks (a barrier, a dup with a 64 KiB allgather, a barrier) run under a `ulimit -v` of 200 MiB and 1.5 GiB, where every process used to map the whole arena (580 MiB and 3 GiB: 2026-11-29); a collective area that does not fit under the limit fails MPI_Init, or the MPI_Comm_dup that needed it, with one line naming its bytes and ulimit -v; skipped under sanitizers, whose shadow memory needs terabytes of address space.
# shmpi-test: timeout=180
# shmpi-test-nocheck: the check mode takes one of the two collective areas it sets for its order records (coll/order_check.c), so the dup gets none, runs without one and maps nothing more.
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"
HOG=$TEST_BIN/collhog

case "${SANFLAGS:-}" in
*sanitize*) pass "skipped: sanitizers reserve more address space than any ulimit -v here" ;;
esac

# What a rank maps, measured 2026-11-29 with one point-to-point lane
# (VmSize of an idle rank, test helper collhog): np=16: 580 MiB before
# the areas were mapped apart, 69 MiB after; np=64: 3078 MiB before,
# 1036 MiB after (1 GiB of it the rings of 64 x 64 pairs).  A rank maps
# lane 0 at MPI_Init and any other lane only when a communicator of its
# uses it (pt2pt/conn.c), so an idle rank maps as it did then.  The
# limits leave room for the program and one more collective area.
under_limit() { # KiB np
    start_job sh -c 'ulimit -v "$1" && shift && exec "$@"' sh "$1" \
        "$MPIRUN" -np "$2" --oversubscribe "$HOG" idle 0 64
    finish_job
}

under_limit $((200 * 1024)) 16
expect_status 0
expect_lines "$OUT" '^rank [0-9]+ ok$' 16

under_limit $((1536 * 1024)) 64
expect_status 0
expect_lines "$OUT" '^rank [0-9]+ ok$' 64

# Areas of 1 GiB and more (slots of 256 MiB, or 1 GiB, for 4 ranks):
# MPI_COMM_WORLD's fits under 1.6 GiB, a dup's second one does not;
# one of 4 GiB does not fit at all.
export SHMPI_COLL_AREAS=2 SHMPI_COLL_SLOT_KB=256m
under_limit $((1640 * 1024)) 4
[ "$STATUS" != 0 ] || fail "the dup worked without room for its area"
map_line='cannot map [0-9]+ bytes of the arena for a collective area: Cannot allocate memory \(the address space is limited: ulimit -v\)'
expect_lines "$ERR" "MPI_Comm_dup: $map_line \\(MPI_ERR_NO_MEM\\)"
expect_no_lines "$ERR" 'signal'

export SHMPI_COLL_AREAS=1 SHMPI_COLL_SLOT_KB=1g
under_limit $((1640 * 1024)) 4
[ "$STATUS" != 0 ] || fail "MPI_Init worked without room for MPI_COMM_WORLD's area"
n=$(grep -Ec "MPI_Init: $map_line" "$ERR")
[ "$n" -ge 1 ] || fail "no rank said what it could not map"
expect_no_lines "$ERR" 'signal'
expect_shm_clean
pass
