#!/usr/bin/env bash
# part-refused: a partitioned receive that the kernel does not let open its sender's staging area (a non-dumpable sender, no CAP_SYS_PTRACE) fails, and so does its send, in every round, each with a line saying why, instead of the sender waiting forever; the pair then still communicates.
# shmpi-test: timeout=60
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"
HELPER=$TEST_BIN/partrefuse

# Without CAP_SYS_PTRACE a process may not open the descriptors of a
# non-dumpable one.  Root drops it from the bounding set for the job;
# others never had it.
nocap=()
if [ "$(id -u)" = 0 ]; then
    command -v setpriv >/dev/null || pass "skipped: no setpriv to drop CAP_SYS_PTRACE"
    nocap=(setpriv --bounding-set -sys_ptrace --inh-caps -sys_ptrace)
fi

start_job "${nocap[@]}" "$MPIRUN" -np 2 "$HELPER" return
finish_job
expect_status 0
expect_lines "$OUT" '^rank 0 refused MPI_ERR_OTHER' 1
expect_lines "$OUT" '^rank 1 refused MPI_ERR_OTHER' 1
expect_lines "$OUT" '^rank [01] ok$' 2

start_job "${nocap[@]}" "$MPIRUN" -np 2 "$HELPER" fatal
finish_job
[ "$STATUS" != 0 ] || fail "the fatal run ended with status 0"
grep -Eq "MPI_Wait: (cannot map the staging area of rank 0's partitioned send \(/proc/[0-9]+/fd/[0-9]+\): Permission denied|the receiver \(rank 1\) could not map this partitioned send's staging area: Permission denied)" "$ERR" ||
    fail "no rank said why its partitioned request failed"
expect_no_lines "$ERR" 'signal'
expect_shm_clean
pass
