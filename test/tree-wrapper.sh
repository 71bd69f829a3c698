#!/usr/bin/env bash
# tree-wrapper: ranks started through a wrapper script that runs the MPI program as its child (no exec) are torn down with the job: kill -9 of mpirun, SIGTERM to mpirun, a failing rank; /dev/shm clean.
# shmpi-test: timeout=90
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

# the real MPI processes are the wrapper's children: their pids are the
# ones the victim writes (rank_pids), not the ones mpirun started
wrapper=$TEST_TMPDIR/run.sh
printf '#!/bin/sh\n"%s" "$@"\nexit $?\n' "$VICTIM" >"$wrapper"
chmod +x "$wrapper"

started_by_mpirun() { # the wrapper shells: mpirun's children
    local p
    for p in $(rank_pids); do awk '{print $4}' "/proc/$p/stat" 2>/dev/null; done
}

for np in 4 16; do
    start_job "$MPIRUN" -np $np "$wrapper" hang 1
    wait_ready
    sleep 0.2
    pids=$(rank_pids)
    [ "$(echo $pids | wc -w)" = $np ] || fail "expected $np rank pids, have: $pids"
    shells=$(started_by_mpirun)
    signal_launcher KILL
    finish_job
    expect_status 137
    ranks_gone 2
    pids_gone 1 $shells
    expect_shm_clean
done
echo "kill -9 of mpirun: every wrapped program gone"

start_job "$MPIRUN" -np 4 "$wrapper" hang 1
wait_ready
sleep 0.2
signal_launcher TERM
finish_job
expect_status 143
expect_fast 1.5
ranks_gone 0.5
expect_shm_clean
echo "SIGTERM to mpirun: every wrapped program gone"

# rank 2's program exits 3 (so does its wrapper); the others wait in
# MPI_Barrier in their wrappers' children
start_job "$MPIRUN" -np 4 "$wrapper" exit 2 3
wait_ready
finish_job
expect_status 3
expect_lines "$ERR" '^mpirun: rank 2 \(pid [0-9]+\) exited with status 3; job aborted$'
expect_fast 1
ranks_gone 0.5
expect_shm_clean
echo "a failing rank: every wrapped program gone"

# a wrapper is a normal job: the program in it is the rank
start_job "$MPIRUN" -np 4 "$wrapper" ok
finish_job
expect_status 0
expect_lines "$OUT" '^ok size 4$'
pass
