#!/usr/bin/env bash
# lane-vm-limit: a rank maps the point-to-point memory of the lanes it uses only - 64 ranks exchanging on MPI_COMM_WORLD run under a `ulimit -v` of 300 MiB (every lane mapped at MPI_Init took 557 MiB of VmPeak, one lane takes 149 MiB: 2026-11-29), and a lane that cannot be mapped fails the MPI_Comm_dup that needed it with MPI_ERR_NO_MEM and a line naming its bytes and ulimit -v, the program going on in the lanes it has; skipped under sanitizers, whose shadow memory needs terabytes of address space.
# shmpi-test: timeout=180
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"
HOG=$TEST_BIN/lanehog

case "${SANFLAGS:-}" in
*sanitize*) pass "skipped: sanitizers reserve more address space than any ulimit -v here" ;;
esac

export SHMPI_LANES=4
under_limit() { # KiB np args...
    local kib=$1 np=$2
    shift 2
    start_job sh -c 'ulimit -v "$1" && shift && exec "$@"' sh "$kib" \
        "$MPIRUN" -np "$np" --oversubscribe "$HOG" "$@"
    finish_job
}

# np=64, MPI_COMM_WORLD only (lane 0): 149 MiB of VmPeak per rank
under_limit $((300 * 1024)) 64 pairs 0
expect_status 0
expect_lines "$OUT" '^rank [0-9]+ ok VmPeak [0-9]+ kB$' 64

# np=16, every lane used (three dups): each is mapped when its first
# communicator is made, and works
under_limit $((300 * 1024)) 16 pairs 3
expect_status 0
expect_lines "$OUT" '^rank [0-9]+ ok VmPeak [0-9]+ kB$' 16

# Lanes of 64 MiB (4 ranks, 8 rings of 2 x 1 MiB each): with 16 MiB of
# address space to spare, MPI_Comm_dup cannot map its lane
export SHMPI_RING_KB=1024
under_limit unlimited 4 nomem 16 return
expect_status 0
expect_lines "$OUT" '^rank [0-9]+: no-mem$' 4
expect_lines "$OUT" '^rank [0-9]+ ok VmPeak [0-9]+ kB$' 4

under_limit unlimited 4 nomem 16 fatal
[ "$STATUS" != 0 ] || fail "the dup worked without room for its lane"
map_line='cannot map [0-9]+ bytes of the arena for point-to-point lane [0-9]+: Cannot allocate memory \(the address space is limited: ulimit -v\)'
n=$(grep -Ec "MPI_Comm_dup: $map_line \\(MPI_ERR_NO_MEM\\)" "$ERR")
[ "$n" -ge 1 ] || fail "no rank said what it could not map"
expect_no_lines "$ERR" 'signal'
expect_shm_clean
pass
