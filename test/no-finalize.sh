#!/usr/bin/env bash
# no-finalize: a rank that returns 0 from main without MPI_Finalize, or without ever calling MPI_Init while the others did, fails the job: status 1 and one line saying so.
# shmpi-test: timeout=60
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

start_job "$MPIRUN" -np 3 "$VICTIM" nofinalize 1
wait_ready
finish_job
expect_status 1
expect_lines "$ERR" '^mpirun: '
expect_lines "$ERR" '^mpirun: rank 1 \(pid [0-9]+\) exited without calling MPI_Finalize; job aborted$'
expect_fast 1
ranks_gone 0.2
expect_shm_clean

start_job "$MPIRUN" -np 3 "$VICTIM" noinit 2
finish_job
expect_status 1
expect_lines "$ERR" '^mpirun: '
expect_lines "$ERR" '^mpirun: rank 2 \(pid [0-9]+\) exited without calling MPI_Init; job aborted$'
ranks_gone 0.2
expect_shm_clean

# and a job where everyone finalizes is fine and quiet
start_job "$MPIRUN" -np 3 "$VICTIM" ok
finish_job
expect_status 0
expect_lines "$OUT" '^ok size 3$'
[ ! -s "$ERR" ] || fail "a clean job printed on stderr"
expect_shm_clean
pass
