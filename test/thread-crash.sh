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
finish_job
expect_status 139
expect_lines "$ERR" '^mpirun: '
expect_lines "$ERR" '^mpirun: rank 2 \(pid [0-9]+\) was killed by signal 11 \(Segmentation fault.*\); job aborted$'
expect_fast 1
ranks_gone 0.2
expect_shm_clean

start_job env SHMPI_NP=4 "$VICTIM" thread-segv 1
wait_ready
finish_job
expect_status 139
expect_lines "$ERR" 'rank 1 \(pid [0-9]+\) was killed by signal 11 \(Segmentation fault.*\); job aborted$'
expect_fast 1
ranks_gone 0.2
expect_shm_clean
pass
