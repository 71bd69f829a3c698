#!/usr/bin/env bash
# launch-stop: once a job of 1024 ranks has failed (or timed out) while its ranks are still being started, mpirun starts no more of them and ends at once.
# shmpi-test: timeout=120
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

# Every rank leaves a file and exits 3 at once: the first exit decides
# the job, and mpirun handles the ranks' exits every 16 starts, so far
# fewer than 1024 ranks start (before, all 1024 were started first: 25 s
# on a loaded machine for a job that failed in its first milliseconds).
started="$TEST_TMPDIR/started"
mkdir -p "$started"
start_job "$MPIRUN" -np 1024 sh -c 'touch "$1/$SHMPI_RANK"; exit 3' sh \
    "$started"
finish_job
expect_status 3
expect_lines "$ERR" '^mpirun: rank [0-9]+ \(pid [0-9]+\) exited with status 3; job aborted'
n=$(ls "$started" | wc -l)
[ "$n" -lt 512 ] || fail "$n of 1024 ranks were started after the job had failed"
echo "$n ranks started"

# --timeout counts from the start of the launch: a job of 1024 ranks
# that takes longer than that to start is stopped when it expires
t0=$(now)
start_job "$MPIRUN" -np 1024 --timeout 0.2 sleep 100
finish_job
expect_status 124
expect_lines "$ERR" '^mpirun: job timed out after 0.2 s; killing [0-9]+ ranks$'
took=$(awk -v a="$t0" -v b="$END" 'BEGIN { printf "%.2f", b - a }')
echo "--timeout 0.2 ended the job after $took s: $(cat "$ERR")"
expect_shm_clean
pass
