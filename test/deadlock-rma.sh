#!/usr/bin/env bash
# deadlock-rma: a rank asleep in an RMA synchronization is reported with the call (MPI_Win_fence, MPI_Win_lock, MPI_Win_wait, an MPI_Win_start epoch waiting for its post, MPI_Wait on a sync counter), the window (its MPI_Win_set_name name or window #N) and the rank it waits for where one is known: the exclusive holder of a lock MPI_Win_lock waits for, closing the cycle through it.
# shmpi-test: timeout=120
# shmpi-test-skip tsan: ThreadSanitizer runs a thread of its own in every process, and a rank with a thread that is not asleep in MPI is never taken for a deadlocked one (as test/deadlock.sh).
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

STUCK=$TEST_BIN/rmastuck
G='^mpirun:   '
P='rank 1 \(rank 1 in window #[0-9]+\)'
# A period of 200 ms: these check the report; test/deadlock.sh checks
# it after the default period (a report here comes 0.8 s sooner).
export SHMPI_DEADLOCK_MS=200
MS=$SHMPI_DEADLOCK_MS

# (mode): run at np = 2, expect 125, the verdict, rank 1 in MPI_Recv
run_stuck() {
    start_job "$MPIRUN" -np 2 "$STUCK" "$1"
    finish_job
    expect_status 125
    expect_lines "$ERR" "^mpirun: deadlock: every rank blocked in MPI \\(SHMPI_DEADLOCK_MS=$MS\\); job aborted\$"
    expect_lines "$ERR" "${G}rank 1: MPI_Recv: receive from rank 0 \(rank 0 in MPI_COMM_WORLD\), tag 0\$"
    expect_no_lines "$ERR" 'did not block'
    ranks_gone 0.2
    expect_shm_clean
}
CYCLE="${G}cycle: rank 0 waits for rank 1 waits for rank 0\$"

run_stuck fence
expect_lines "$ERR" "${G}rank 0: MPI_Win_fence on window #[0-9]+, waiting for $P\$"
expect_lines "$ERR" "$CYCLE"

run_stuck fence-named
expect_lines "$ERR" "${G}rank 0: MPI_Win_fence on window \"grid\", waiting for rank 1 \(rank 1 in window \"grid\"\)\$"

# the lock word names its exclusive holder: the edge goes to it
run_stuck lock
expect_lines "$ERR" "${G}rank 0: MPI_Win_lock \(exclusive\) on window #[0-9]+: the lock of $P is held exclusively by $P, since its MPI_Win_lock \(exclusive\)\$"
expect_lines "$ERR" "$CYCLE"

# shared holders are counted, not named: no edge, no cycle
run_stuck lock-shared
expect_lines "$ERR" "${G}rank 0: MPI_Win_lock \(exclusive\) on window #[0-9]+: the lock of $P is held by 1 shared holder\$"
expect_no_lines "$ERR" 'cycle:'

# the holder is neither the waiter nor the target: rank 0 holds rank 2's
# lock and waits for rank 1, which waits for that lock
start_job "$MPIRUN" -np 3 "$STUCK" lock-held
finish_job
expect_status 125
expect_lines "$ERR" "^mpirun: deadlock: every rank blocked in MPI \\(SHMPI_DEADLOCK_MS=$MS\\); job aborted\$"
expect_lines "$ERR" "${G}rank 0: MPI_Recv: receive from rank 1 \(rank 1 in MPI_COMM_WORLD\), tag 0\$"
expect_lines "$ERR" "${G}rank 1: MPI_Win_lock \(exclusive\) on window #[0-9]+: the lock of rank 2 \(rank 2 in window #[0-9]+\) is held exclusively by rank 0 \(rank 0 in window #[0-9]+\), since its MPI_Win_lock \(exclusive\)\$"
expect_lines "$ERR" "${G}rank 2: MPI_Recv: receive from rank 0 \(rank 0 in MPI_COMM_WORLD\), tag 0\$"
expect_lines "$ERR" "$CYCLE"
expect_no_lines "$ERR" 'did not block'
ranks_gone 0.2
expect_shm_clean

run_stuck wait
expect_lines "$ERR" "${G}rank 0: MPI_Win_wait on window #[0-9]+: 1 MPI_Win_complete missing, of the posted group \(world ranks 1\)\$"
expect_lines "$ERR" "$CYCLE"

run_stuck start
expect_lines "$ERR" "${G}rank 0: an access epoch of MPI_Win_start on window #[0-9]+ \(its first access or MPI_Win_complete\): waiting for $P to call MPI_Win_post\$"
expect_lines "$ERR" "$CYCLE"

run_stuck sync
expect_lines "$ERR" "${G}rank 0: MPI_Wait: sync counter 0x[0-9a-f]+ of world rank 0 on window #[0-9]+ \(MPI_Win_sync_object_init, count 1\): 1 signal\(s\) missing\$"
pass
