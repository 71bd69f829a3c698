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
    expect_segv_end 2 mpirun
    expect_shm_clean
done
pass
