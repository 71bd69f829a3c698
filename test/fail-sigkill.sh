#!/usr/bin/env bash
# fail-sigkill: a rank killed by SIGKILL (raised by itself, or sent from outside) ends the job: status 137, one line, the other ranks gone at once, /dev/shm clean.
# shmpi-test: timeout=60
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

start_job "$MPIRUN" -np 4 "$VICTIM" raise-kill 3
wait_ready
finish_job
expect_status 137
expect_lines "$ERR" '^mpirun: '
expect_lines "$ERR" '^mpirun: rank 3 \(pid [0-9]+\) was killed by signal 9 \(Killed\); job aborted$'
expect_fast 1
ranks_gone 0.2
expect_shm_clean

# from outside, while every rank waits in MPI_Barrier
start_job "$MPIRUN" -np 4 "$VICTIM" hang 1
wait_ready
sleep 0.2
victim=$(cat "$TEST_TMPDIR/pid.2")
date +%s.%N >"$TEST_TMPDIR/event"
kill -KILL "$victim"
finish_job
expect_status 137
expect_lines "$ERR" '^mpirun: '
expect_lines "$ERR" "^mpirun: rank 2 \\(pid $victim\\) was killed by signal 9 \\(Killed\\); job aborted\$"
expect_fast 1
ranks_gone 0.2
expect_shm_clean
pass
