#!/usr/bin/env bash
# mpirun-sigkill: when mpirun itself is killed with SIGKILL its ranks die at once too (nothing can be left running), and /dev/shm is clean.
# shmpi-test: timeout=60
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

for np in 4 16; do
    start_job "$MPIRUN" -np $np "$VICTIM" hang 1
    wait_ready
    sleep 0.2
    pids=$(rank_pids)
    [ "$(echo $pids | wc -w)" = $np ] || fail "expected $np rank pids, have: $pids"
    signal_launcher KILL
    finish_job
    expect_status 137
    ranks_gone 1
    expect_shm_clean
done
pass
