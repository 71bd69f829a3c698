#!/usr/bin/env bash
# abort: MPI_Abort(MPI_COMM_WORLD, 7) on one rank ends the job with status 7 and one line naming the rank and the code; a singleton's MPI_Abort says so itself.
# shmpi-test: timeout=60
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

start_job "$MPIRUN" -np 4 "$VICTIM" abort 2 7
wait_ready
finish_job
expect_status 7
expect_lines "$ERR" '^mpirun: '
expect_lines "$ERR" '^mpirun: rank 2 called MPI_Abort\(MPI_COMM_WORLD, 7\); job aborted$'
expect_fast 1
ranks_gone 0.2
expect_shm_clean

# errorcode 0 must still fail the job
start_job "$MPIRUN" -np 2 "$VICTIM" abort 0 0
wait_ready
finish_job
[ "$STATUS" != 0 ] || fail "MPI_Abort(MPI_COMM_WORLD, 0) gave exit status 0"
expect_lines "$ERR" '^mpirun: rank 0 called MPI_Abort\(MPI_COMM_WORLD, 0\); job aborted$'
ranks_gone 0.2

# a singleton (no launcher) reports its own MPI_Abort
start_job env -u SHMPI_NP "$VICTIM" abort 0 5
finish_job
expect_status 5
expect_lines "$ERR" 'rank 0 .*MPI_Abort\(MPI_COMM_WORLD, 5\)'
expect_shm_clean
pass
