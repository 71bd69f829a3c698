#!/usr/bin/env bash
# fatal-error: under MPI_ERRORS_ARE_FATAL a bad call prints one line (rank, function, what was wrong, class), mpirun one summary line, and the job fails; a call before MPI_Init names the right rank too.
# shmpi-test: timeout=60
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

start_job "$MPIRUN" -np 3 "$VICTIM" fatal 1
wait_ready
finish_job
[ "$STATUS" != 0 ] || fail "exit status 0"
expect_no_lines "$ERR" 'the fatal error returned'
expect_lines "$ERR" '^shmpi: rank 1: MPI_Comm_rank: .+ \(MPI_ERR_ARG\)$'
expect_lines "$ERR" '^shmpi: '
expect_lines "$ERR" '^mpirun: '
expect_lines "$ERR" '^mpirun: rank 1 .*MPI_Comm_rank.*MPI_ERR_ARG.*job aborted$'
tail -n 1 "$ERR" | grep -q '^mpirun: ' ||
    fail "mpirun's line is not the last one, after the rank's own"
expect_fast 1
ranks_gone 0.2
expect_shm_clean
echo "message: $(grep '^shmpi: ' "$ERR")"

# before MPI_Init: the line still names the rank that made the call
start_job "$MPIRUN" -np 3 "$VICTIM" before-init 1
finish_job
[ "$STATUS" != 0 ] || fail "exit status 0"
expect_no_lines "$OUT" 'returned'
expect_lines "$ERR" '^shmpi: '
expect_lines "$ERR" '^shmpi: rank 1: MPI_Comm_size: .*MPI_Init.* \(MPI_ERR_OTHER\)$'
expect_lines "$ERR" '^mpirun: '
expect_lines "$ERR" '^mpirun: rank 1 '
ranks_gone 0.2
expect_shm_clean
pass
