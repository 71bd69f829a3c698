#!/usr/bin/env bash
# deadlock: a job whose ranks all block in MPI for good ends with status 125 and the wait-for graph (each rank's call, peer, tag, communicator) and its cycle - head-on receives, a ring of Ssends, a receive from a rank in MPI_Finalize, a barrier against a receive, two threads a rank in MPI_Recv, under mpirun and the in-library launch.
# shmpi-test: timeout=120
# shmpi-test-skip tsan: ThreadSanitizer runs a thread of its own in every process, and a rank with a thread that is not asleep in MPI is never taken for a deadlocked one, so no job here is reported (make check-tsan, 2026-11-29: the first job ran into the test's timeout).
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

STUCK=$TEST_BIN/stuck
G='^mpirun:   '

# (who mode np): run, expect 125, the graph's head and the verdict
# after MS milliseconds: the default period (1000, SHMPI_DEADLOCK_MS
# unset) for the first job, 200 for the rest (each report 0.8 s sooner)
MS=1000
run_stuck() {
    local period=()
    [ "$MS" = 1000 ] || period=(SHMPI_DEADLOCK_MS=$MS)
    start_job env "${period[@]}" "$MPIRUN" -np "$2" "$STUCK" "$1"
    finish_job
    expect_status 125
    expect_lines "$ERR" "^mpirun: deadlock: every rank is blocked in MPI and nothing has moved for $MS ms; the wait-for graph:\$"
    expect_lines "$ERR" "^mpirun: deadlock: every rank blocked in MPI \\(SHMPI_DEADLOCK_MS=$MS\\); job aborted\$"
    ranks_gone 0.2
    expect_shm_clean
}

# both ranks receive from each other
run_stuck headon 2
expect_lines "$ERR" "${G}rank 0: MPI_Recv: receive from rank 1 \(rank 1 in MPI_COMM_WORLD\), tag 0\$"
expect_lines "$ERR" "${G}rank 1: MPI_Recv: receive from rank 0 \(rank 0 in MPI_COMM_WORLD\), tag 0\$"
expect_lines "$ERR" "${G}cycle: rank 0 waits for rank 1 waits for rank 0\$"
expect_lines "$ERR" "$G" 3
MS=200

# a ring of 4 synchronous sends
run_stuck ring 4
for r in 0 1 2 3; do
    n=$(( (r + 1) % 4 ))
    expect_lines "$ERR" "${G}rank $r: MPI_Ssend: synchronous send to rank $n \(rank $n in MPI_COMM_WORLD\), tag 5\$"
done
expect_lines "$ERR" "${G}cycle: rank 0 waits for rank 1 waits for rank 2 waits for rank 3 waits for rank 0\$"

# rank 1 is in MPI_Finalize (its barrier), rank 0 receives from it
run_stuck finalized 2
expect_lines "$ERR" "${G}rank 0: MPI_Recv: receive from rank 1 \(rank 1 in MPI_COMM_WORLD\), tag 3\$"
expect_lines "$ERR" "${G}rank 1 has finalized \(is in MPI_Finalize\): MPI_Finalize on MPI_COMM_WORLD, waiting for rank 0 \(rank 0 in MPI_COMM_WORLD\)\$"
expect_lines "$ERR" "${G}rank 0 waits for rank 1, which has finalized\$"
expect_lines "$ERR" "${G}cycle: rank 0 waits for rank 1 waits for rank 0\$"

# the same at 4 ranks: the others wait in the barrier too
run_stuck finalized 4
expect_lines "$ERR" "${G}rank 0: MPI_Recv: receive from rank 1 " 1
expect_lines "$ERR" "${G}rank [123] has finalized \(is in MPI_Finalize\): MPI_Finalize on MPI_COMM_WORLD" 3

# a collective against a receive
run_stuck mismatch 2
expect_lines "$ERR" "${G}rank 0: MPI_Barrier on MPI_COMM_WORLD, waiting for rank 1 \(rank 1 in MPI_COMM_WORLD\)\$"
expect_lines "$ERR" "${G}rank 1: MPI_Recv: receive from rank 0 "
expect_lines "$ERR" "${G}cycle: rank 0 waits for rank 1 waits for rank 0\$"

# MPI_THREAD_MULTIPLE: both threads of each rank in MPI_Recv, one line each
run_stuck threads 2
for r in 0 1; do
    expect_lines "$ERR" "${G}rank $r: MPI_Recv: receive from rank $((1 - r)) .*; and MPI_Recv: receive from rank $((1 - r)) "
    expect_lines "$ERR" "${G}rank $r: .*tag 0"
    expect_lines "$ERR" "${G}rank $r: .*tag 1"
done
expect_lines "$ERR" "${G}cycle: rank 0 waits for rank 1 waits for rank 0\$"

# the in-library launch: the same report, under the program's name
start_job env SHMPI_NP=2 SHMPI_DEADLOCK_MS=$MS "$STUCK" headon
finish_job
expect_status 125
expect_lines "$ERR" '^shmpi:   cycle: rank 0 waits for rank 1 waits for rank 0$'
expect_lines "$ERR" "^shmpi: deadlock: every rank blocked in MPI \\(SHMPI_DEADLOCK_MS=$MS\\); job aborted\$"
ranks_gone 0.2
expect_shm_clean

# SHMPI_DEADLOCK_MS=0: no report (the job's own --timeout ends it)
start_job env SHMPI_DEADLOCK_MS=0 "$MPIRUN" --timeout 3 -np 2 "$STUCK" headon
finish_job
expect_status 124
expect_no_lines "$ERR" 'deadlock'
ranks_gone 0.2
expect_shm_clean
pass
