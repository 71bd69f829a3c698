#!/usr/bin/env bash
# deadlock-coll: a rank asleep in a collective is reported with the call (MPI_Bcast, MPI_Allreduce, MPI_Reduce, MPI_Barrier under both barrier algorithms, MPI_Ibarrier's MPI_Wait, MPI_Wait on persistent ones, a blocking collective completing a started persistent one, a barrier on an intercommunicator), its root, the communicator's name (MPI_Comm_set_name, MPI_COMM_WORLD, or comm #context) and the rank it waits for.
# shmpi-test: timeout=200
# shmpi-test-skip tsan: ThreadSanitizer runs a thread of its own in every process, and a rank with a thread that is not asleep in MPI is never taken for a deadlocked one (as test/deadlock.sh).
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

STUCK=$TEST_BIN/collstuck
G='^mpirun:   '
# A period of 200 ms: these check the report; test/deadlock.sh checks
# it after the default period (a report here comes 0.8 s sooner).
export SHMPI_DEADLOCK_MS=200
MS=$SHMPI_DEADLOCK_MS

# (mode np [env...]): run, expect 125 and the verdict; the last rank is
# in MPI_Recv from rank 0, the others in the collective
run_stuck() {
    local mode=$1 np=$2
    shift 2
    start_job env "$@" "$MPIRUN" -np "$np" "$STUCK" "$mode"
    finish_job
    expect_status 125
    expect_lines "$ERR" "^mpirun: deadlock: every rank blocked in MPI \\(SHMPI_DEADLOCK_MS=$MS\\); job aborted\$"
    expect_lines "$ERR" "${G}rank $((np - 1)): MPI_Recv: receive from rank 0 \(rank 0 in MPI_COMM_WORLD\), tag 0\$"
    expect_lines "$ERR" "${G}cycle: rank 0 (waits for rank [0-9]+ )*waits for rank $((np - 1)) waits for rank 0\$"
    ranks_gone 0.2
    expect_shm_clean
}
W='rank 2 \(rank 2 in MPI_COMM_WORLD\)'

run_stuck bcast 3
for r in 0 1; do
    expect_lines "$ERR" "${G}rank $r: MPI_Bcast \(root 2\) on work, waiting for rank 2 \(rank 2 in work\)\$"
done

# the small Allreduce's own path, both barrier algorithms
for b in dissemination counter; do
    run_stuck allreduce 3 SHMPI_COLL_BARRIER=$b
    # which step a rank sleeps in, and so whom it waits for, depends on
    # how far the others got first (rank 0 was seen waiting for rank 1's
    # word of a step, rank 1 for rank 0's, 2026-11-30); the cycle through
    # rank 2 is run_stuck's to check
    for r in 0 1; do
        expect_lines "$ERR" "${G}rank $r: MPI_Allreduce on MPI_COMM_WORLD(: 2 of its 3 ranks arrived)?, waiting for rank ([0-2]) \(rank \2 in MPI_COMM_WORLD\)\$"
    done
    run_stuck barrier 3 SHMPI_COLL_BARRIER=$b
    expect_lines "$ERR" "${G}rank [01]: MPI_Barrier on MPI_COMM_WORLD(: 2 of its 3 ranks arrived)?, waiting for " 2
done
expect_lines "$ERR" "${G}rank [01]: MPI_Barrier on MPI_COMM_WORLD: 2 of its 3 ranks arrived, waiting for $W\$" 2

run_stuck barrier 2
expect_lines "$ERR" "${G}rank 0: MPI_Barrier on MPI_COMM_WORLD, waiting for rank 1 \(rank 1 in MPI_COMM_WORLD\)\$"

# an unnamed communicator; rank 1, not the root, finishes and finalizes
run_stuck reduce 3
expect_lines "$ERR" "${G}rank 0: MPI_Reduce \(root 0\) on comm #[0-9]+, waiting for rank 2 \(rank 2 in comm #[0-9]+\)\$"
expect_lines "$ERR" "${G}rank 1 has finalized \(is in MPI_Finalize\): MPI_Finalize on MPI_COMM_WORLD"

run_stuck ibarrier 3
expect_lines "$ERR" "${G}rank 0: MPI_Wait: MPI_Ibarrier on MPI_COMM_WORLD \(round 1 of [0-9]+\), waiting for $W\$"

# persistent: the Allreduce on the area (dissemination), a schedule's
run_stuck pallreduce 3 SHMPI_COLL_BARRIER=dissemination
expect_lines "$ERR" "${G}rank [01]: MPI_Wait: MPI_Allreduce_init's request on MPI_COMM_WORLD, waiting for $W\$" 2
run_stuck pdrain 3 SHMPI_COLL_BARRIER=dissemination
expect_lines "$ERR" "${G}rank [01]: MPI_Barrier on MPI_COMM_WORLD \(completing a started persistent MPI_Allreduce first\), waiting for $W\$" 2
run_stuck pbcast 3
expect_lines "$ERR" "${G}rank [01]: MPI_Wait: MPI_Bcast_init on MPI_COMM_WORLD \(round 1 of 1\), waiting for $W\$" 2

run_stuck intercomm 3
expect_lines "$ERR" "${G}rank 0: MPI_Barrier on bridge \(round 1 of [0-9]+\), waiting for rank 1 "
expect_lines "$ERR" "${G}rank 1: MPI_Barrier on bridge \(round [0-9]+ of [0-9]+\), waiting for rank 2 "
pass
