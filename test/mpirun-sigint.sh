#!/usr/bin/env bash
# mpirun-sigint: SIGINT to mpirun ends the job: status 130, every rank gone within a second, /dev/shm clean; SIGTERM likewise (143); a rank that ignores the signal is SIGKILLed after the grace period, or at once on a second signal.
# shmpi-test: timeout=60
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

for sig in INT:130 TERM:143; do
    start_job "$MPIRUN" -np 4 "$VICTIM" hang 1
    wait_ready
    sleep 0.2
    signal_launcher "${sig%:*}"
    finish_job
    expect_status "${sig#*:}"
    expect_lines "$ERR" '^mpirun: '
    expect_fast 1
    ranks_gone 0.2
    expect_shm_clean
done
# a rank that ignores SIGINT: SIGKILL after SHMPI_KILL_GRACE_MS (1000 ms)
start_job "$MPIRUN" -np 3 "$VICTIM" hang-ignint 1
wait_ready
sleep 0.2
signal_launcher INT
finish_job
expect_status 130
t=$(teardown_time)
awk -v t="$t" 'BEGIN { exit !(t >= 0.9 && t < 2) }' ||
    fail "a rank ignoring SIGINT was gone after $t s; the grace period is 1 s"
ranks_gone 0.2
echo "grace 1000 ms: $t s"

start_job env SHMPI_KILL_GRACE_MS=200 "$MPIRUN" -np 3 "$VICTIM" hang-ignint 1
wait_ready
sleep 0.2
signal_launcher INT
finish_job
expect_status 130
t=$(teardown_time)
awk -v t="$t" 'BEGIN { exit !(t >= 0.15 && t < 0.9) }' ||
    fail "SHMPI_KILL_GRACE_MS=200: the job took $t s to end"
ranks_gone 0.2
echo "grace 200 ms: $t s"

# a second signal does not wait for the grace period
start_job "$MPIRUN" -np 3 "$VICTIM" hang-ignint 1
wait_ready
sleep 0.2
kill -INT "$job_pid"
sleep 0.1
signal_launcher INT
finish_job
expect_status 130
expect_fast 0.5
ranks_gone 0.2
expect_shm_clean
pass
