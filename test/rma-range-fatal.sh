#!/usr/bin/env bash
# rma-range-fatal: an MPI_Put past the end of a target's window under the default MPI_ERRORS_ARE_FATAL prints one line naming the window (unnamed: its number and constructor), the target, the displacement, the window's size and MPI_ERR_RMA_RANGE, and the job fails.
# shmpi-test: timeout=60
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

# rank 1 puts 2 doubles at disp 7 of rank 0's window 2 (8 doubles)
start_job "$MPIRUN" -np 3 "$VICTIM" put-range 1
wait_ready
finish_job
[ "$STATUS" != 0 ] || fail "exit status 0"
expect_no_lines "$ERR" 'the out-of-range put returned'
expect_lines "$ERR" '^shmpi: '
line=$(grep '^shmpi: ' "$ERR")
for part in '^shmpi: rank 1: MPI_Put: ' \
            'window 2 \(unnamed, made by MPI_Win_allocate\): ' \
            "target 0's window is 64 bytes" \
            'disp 7 x disp_unit 8' \
            ' \(MPI_ERR_RMA_RANGE\)$'; do
    grep -Eq -- "$part" <<<"$line" || fail "the error line does not match /$part/"
done
expect_lines "$ERR" '^mpirun: rank 1 .*MPI_Put.*MPI_ERR_RMA_RANGE.*job aborted$'
ranks_gone 0.2
expect_shm_clean
echo "message: $line"
pass
