#!/usr/bin/env bash
# mpirun-limits: a job that needs more file descriptors than 'ulimit -n' allows fails before any rank starts, with one line naming the limit and status 1.
# shmpi-test: timeout=60
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

# 100 ranks need 364 descriptors in mpirun (3 per rank + 64); the limit
# is 200, soft and hard.  A rank that starts leaves a file behind.
started="$TEST_TMPDIR/started"
mkdir -p "$started"
if (ulimit -n 200 && ulimit -Hn 400) 2>/dev/null; then
    # this process may raise its hard limit (CAP_SYS_RESOURCE): so does
    # mpirun, and the job runs
    start_job bash -c "ulimit -n 200 && exec \"\$0\" \"\$@\"" "$MPIRUN" \
        -np 100 sh -c 'touch "$1/$$"' sh "$started"
    finish_job
    expect_status 0
    [ "$(ls "$started" | wc -l)" = 100 ] || fail "not every rank ran"
    pass "the hard limit could be raised here: the job ran"
fi
start_job bash -c "ulimit -n 200 && exec \"\$0\" \"\$@\"" "$MPIRUN" \
    -np 100 sh -c 'touch "$1/$$"' sh "$started"
finish_job
expect_status 1
expect_lines "$ERR" "^mpirun: 100 ranks need 364 file descriptors .*'ulimit -n' allows 200"
[ "$(wc -l <"$ERR")" = 1 ] || fail "more than one line on stderr"
[ -z "$(ls "$started")" ] || fail "$(ls "$started" | wc -l) ranks started before the job failed"

# within the limit (60 ranks need 244: 'ulimit -n 300') the job runs
start_job bash -c "ulimit -n 300 && exec \"\$0\" \"\$@\"" "$MPIRUN" \
    -np 60 sh -c 'touch "$1/$$"' sh "$started"
finish_job
expect_status 0
[ "$(ls "$started" | wc -l)" = 60 ] || fail "not every rank ran"
expect_shm_clean
pass
