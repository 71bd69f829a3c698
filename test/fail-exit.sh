#!/usr/bin/env bash
# fail-exit: a rank calling exit(3) without MPI_Finalize ends the job with status 3 and one line naming it; the others, blocked in MPI_Barrier, are gone at once.
# shmpi-test: timeout=60
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

start_job "$MPIRUN" -np 4 "$VICTIM" exit 1 3
wait_ready
finish_job
expect_status 3
expect_lines "$ERR" '^mpirun: '
expect_lines "$ERR" '^mpirun: rank 1 \(pid [0-9]+\) exited with status 3; job aborted$'
expect_fast 1
ranks_gone 0.2
expect_shm_clean

# exit status of the job is the rank's, also for large values
start_job "$MPIRUN" -np 2 "$VICTIM" exit 0 200
wait_ready
finish_job
expect_status 200
expect_lines "$ERR" '^mpirun: rank 0 \(pid [0-9]+\) exited with status 200; job aborted$'
ranks_gone 0.2
expect_shm_clean
pass
