#!/usr/bin/env bash
# thread-crash: a rank whose second thread segfaults while its main thread is blocked in MPI_Recv ends the job as a crashing rank does: status 139, one line naming the rank and the signal (under mpirun and under the in-library launch), no rank left, /dev/shm clean.
# shmpi-test: timeout=60
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"
# the test is the SIGSEGV itself: the sanitizers must let it through
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0"
export TSAN_OPTIONS="${TSAN_OPTIONS:+$TSAN_OPTIONS:}handle_segv=0"

start_job "$MPIRUN" -np 4 "$VICTIM" thread-segv 2
wait_ready
expect_segv_end 2 mpirun
expect_shm_clean

start_job env SHMPI_NP=4 "$VICTIM" thread-segv 1
wait_ready
expect_segv_end 1 embedded
expect_shm_clean
pass
