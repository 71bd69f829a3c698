#!/usr/bin/env bash
# check-coll: mpirun --check reports collectives the members of a communicator call differently (another call, root, op or amount; blocking, nonblocking, or one of each) in one "shmpi check:" line naming both calls, before the deadlock report when the job then deadlocks (status 125), else ending with 123; the correct twins (many nonblocking in flight, persistent, split and dup communicators, np 2 and 3) say nothing and end with 0, as does an erroneous form without --check.
# shmpi-test: timeout=180
# shmpi-test-nocheck: it tests the check mode itself, running erroneous helpers with the mode and without it and expecting no report without it.
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

H=$TEST_BIN/check_coll
C='^shmpi check: rank [01]: '

# (form, regex of the line[, status]): the line once, first of the job's
# complaints, and the end: 123, or 125 when the mismatch then deadlocked
# (the deadlock's report after the line)
run_bad() {
    start_job "$MPIRUN" --check --timeout 60 -np 2 "$H" "$1"
    finish_job
    [ "$STATUS" = "${3:-123}" ] ||
        fail "$1: exit status $STATUS, expected ${3:-123}"
    expect_lines "$ERR" "$C" 1
    expect_lines "$ERR" "$2" 1
    grep -Eq -- "$C" <(grep -E '^(shmpi check|mpirun)' "$ERR" | head -1) ||
        fail "$1: the check's line is not the job's first complaint"
    expect_shm_clean
}

F='; fix: '
run_bad call "${C}members called different collectives at the same point \(MPI-3.1 5.1\): rank [01]: MPI_(Bcast\(root 0, 16 bytes\)|Reduce\(root 0, MPI_SUM, 16 bytes\)); rank [01]: MPI_(Bcast|Reduce)\(.*\); collective 1 on MPI_COMM_WORLD${F}every member"
run_bad root "${C}members called a collective with different roots \(MPI-3.1 5.1\): rank 0: MPI_Bcast\(root 0, 16 bytes\); rank 1: MPI_Bcast\(root 1, 16 bytes\)|rank 1: MPI_Bcast\(root 1, 16 bytes\); rank 0: MPI_Bcast\(root 0, 16 bytes\)"
run_bad op "${C}members called a reduction with different ops \(MPI-3.1 5.1\): rank [01]: MPI_Allreduce\(MPI_(SUM|MAX), 16 bytes\); rank [01]: MPI_Allreduce\(MPI_(MAX|SUM), 16 bytes\); collective 1 on MPI_COMM_WORLD${F}pass the same op"
run_bad count "${C}members called a collective with amounts of data that do not match \(MPI-3.1 5.1\): rank [01]: MPI_Allreduce\(MPI_SUM, (16|8) bytes\); rank [01]: MPI_Allreduce\(MPI_SUM, (8|16) bytes\); collective 1 on MPI_COMM_WORLD${F}make count x type size agree"
run_bad gather "${C}members called a collective with amounts of data that do not match \(MPI-3.1 5.1\): rank [01]: MPI_Gather\(root 0, (16|8) bytes\); rank [01]: MPI_Gather\(root 0, (8|16) bytes\)"
run_bad nb "${C}members called different collectives at the same point \(MPI-3.1 5.1[2]?\): rank [01]: MPI_I(bcast|allreduce)\(.*\); rank [01]: MPI_I(allreduce|bcast)\(.*\); collective 11 on MPI_COMM_WORLD"
run_bad mixed "${C}members called different collectives at the same point \(MPI-3.1 5.1[2]?\): rank [01]: MPI_(Ibarrier|Barrier)\(\); rank [01]: MPI_(Barrier|Ibarrier)\(\); collective 1 on MPI_COMM_WORLD" 125
expect_lines "$ERR" '^mpirun: deadlock: every rank is blocked' 1

# the correct twins under --check, and an erroneous form without it
for args in "--check -np 2 $H ok" "--check -np 3 $H ok" "-np 2 $H op"; do
    # shellcheck disable=SC2086
    run_quiet $args
done
