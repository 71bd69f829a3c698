#!/usr/bin/env bash
# fail-segv: a rank that segfaults while the others wait in MPI_Barrier ends the job at once: status 139, one line naming the rank and the signal, no rank left, /dev/shm clean.
# shmpi-test: timeout=60
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"
# the test is the SIGSEGV itself: ASan must let it through
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0"
export TSAN_OPTIONS="${TSAN_OPTIONS:+$TSAN_OPTIONS:}handle_segv=0"

for np in 4 16; do
    start_job "$MPIRUN" -np $np "$VICTIM" segv 2
    wait_ready
    finish_job
    expect_status 139
    expect_lines "$ERR" '^mpirun: '
    expect_lines "$ERR" '^mpirun: rank 2 \(pid [0-9]+\) was killed by signal 11 \(Segmentation fault.*\); job aborted$'
    expect_fast 1
    ranks_gone 0.2
    expect_shm_clean
done
pass
