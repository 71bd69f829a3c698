#!/usr/bin/env bash
# hang-report: SHMPI_HANG_REPORT=1 reports a rank blocked in MPI_Recv for over a second while its peer computes, exactly once, naming the call and the peer, and the job goes on to succeed; a deadlock is reported as one, not as hangs; off by default.
# shmpi-test: timeout=90
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

STUCK=$TEST_BIN/stuck
H='^mpirun: possible hang: rank 1 has been blocked for [0-9.]+ s in MPI_Recv: receive from rank 0 \(rank 0 in MPI_COMM_WORLD\), tag 0$'

start_job env SHMPI_HANG_REPORT=1 "$MPIRUN" -np 2 "$STUCK" compute 4
finish_job
expect_status 0
expect_lines "$ERR" "$H"
expect_lines "$ERR" '.' 1
ranks_gone 0.2
expect_shm_clean

# three receivers, one report each, once
start_job env SHMPI_HANG_REPORT=0.5 "$MPIRUN" -np 4 "$STUCK" compute 3
finish_job
expect_status 0
for r in 1 2 3; do
    expect_lines "$ERR" "^mpirun: possible hang: rank $r has been blocked for "
done
expect_lines "$ERR" '.' 3
ranks_gone 0.2
expect_shm_clean

# a deadlock is reported as one, not as hangs
start_job env SHMPI_HANG_REPORT=0.3 "$MPIRUN" -np 2 "$STUCK" headon
finish_job
expect_status 125
expect_no_lines "$ERR" 'possible hang'
expect_lines "$ERR" '^mpirun:   cycle: rank 0 waits for rank 1 waits for rank 0$'
ranks_gone 0.2
expect_shm_clean

# off by default
start_job "$MPIRUN" -np 2 "$STUCK" compute 3
finish_job
expect_status 0
expect_no_lines "$ERR" 'hang'
expect_shm_clean
pass
