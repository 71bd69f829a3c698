#!/usr/bin/env bash
# thread-fatal: two threads of a rank that fail at the same moment (both a fatal error, both MPI_Abort, one of each; under mpirun and as a singleton) print one line between them, and the process ends with the status of the one that got through, as a single failing thread does.
# shmpi-test: timeout=120
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

# the threads meet at a barrier and fail within microseconds of each
# other; each round is one more chance for the second to slip through.
# ThreadSanitizer sees the race, when there is one, in the first rounds;
# its eight took 54 s of the TSan step (2026-11-30), so it runs two.
rounds=${THREAD_FATAL_ROUNDS:-8}
case "${SANFLAGS:-}" in *thread*) rounds=${THREAD_FATAL_ROUNDS:-2} ;; esac
fatal_rank='^shmpi: rank 1: MPI_Comm_rank: .+ \(MPI_ERR_ARG\)$'
fatal_mpirun='^mpirun: rank 1 .*MPI_Comm_rank.*MPI_ERR_ARG.*job aborted$'
abort_mpirun='^mpirun: rank 1 called MPI_Abort\(MPI_COMM_WORLD, 3\); job aborted$'
abort_alone='^shmpi: rank 0 called MPI_Abort\(MPI_COMM_WORLD, 3\)$'
fatal_alone='^shmpi: rank 0: MPI_Comm_rank: .+ \(MPI_ERR_ARG\)$'

expect_nlines() { # n
    [ "$(wc -l <"$ERR")" = "$1" ] ||
        fail "$(wc -l <"$ERR") lines on stderr, expected $1"
}

for ((i = 0; i < rounds; i++)); do
    # both fatal, under mpirun: the rank's line and mpirun's
    start_job "$MPIRUN" -np 2 "$VICTIM" fatal-pair 1 0
    finish_job
    expect_status 13
    expect_lines "$ERR" "$fatal_rank"
    expect_lines "$ERR" "$fatal_mpirun"
    expect_nlines 2
    ranks_gone 1

    # both MPI_Abort, under mpirun: mpirun's line only
    start_job "$MPIRUN" -np 2 "$VICTIM" fatal-pair 1 1
    finish_job
    expect_status 3
    expect_lines "$ERR" "$abort_mpirun"
    expect_nlines 1
    ranks_gone 1

    # one of each, under mpirun: whichever got through, the lines say it
    start_job "$MPIRUN" -np 2 "$VICTIM" fatal-pair 1 2
    finish_job
    case $STATUS in
    3)  expect_lines "$ERR" "$abort_mpirun"; expect_nlines 1 ;;
    13) expect_lines "$ERR" "$fatal_rank"; expect_lines "$ERR" "$fatal_mpirun"
        expect_nlines 2 ;;
    *)  fail "exit status $STATUS, expected 3 or 13" ;;
    esac
    ranks_gone 1

    # a singleton (no launcher): the rank's own line only
    start_job "$VICTIM" fatal-pair 0 1
    finish_job
    expect_status 3
    expect_lines "$ERR" "$abort_alone"
    expect_nlines 1
    start_job "$VICTIM" fatal-pair 0 2
    finish_job
    case $STATUS in
    3)  expect_lines "$ERR" "$abort_alone" ;;
    13) expect_lines "$ERR" "$fatal_alone" ;;
    *)  fail "exit status $STATUS, expected 3 or 13" ;;
    esac
    expect_nlines 1
done
expect_shm_clean
pass "$rounds rounds"
