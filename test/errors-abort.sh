#!/usr/bin/env bash
# errors-abort: MPI_ERRORS_ABORT on MPI_COMM_SELF ends the job as MPI_Abort(MPI_COMM_SELF) does in shmpi - one line from the rank (rank, function, what, class), one from mpirun, the error class as exit status, every rank gone.
# shmpi-test: timeout=60
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

start_job "$MPIRUN" -np 3 "$VICTIM" errors-abort 1
wait_ready
finish_job
[ "$STATUS" = 13 ] || fail "exit status $STATUS, not 13 (MPI_ERR_ARG)"
expect_no_lines "$ERR" 'MPI_ERRORS_ABORT returned'
expect_lines "$ERR" '^shmpi: rank 1: MPI_Comm_rank: .+ \(MPI_ERR_ARG\)$'
expect_lines "$ERR" '^mpirun: rank 1 .*MPI_Comm_rank.*MPI_ERR_ARG.*job aborted$'
ranks_gone 0.2
expect_shm_clean
pass
