#!/usr/bin/env bash
# timeout: a job that hangs is killed by --timeout 2 after 2 s, with a clear line and status 124; MPIEXEC_TIMEOUT does the same.
# shmpi-test: timeout=60
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

for how in option env; do
    t0=$(now)
    if [ $how = option ]; then
        start_job "$MPIRUN" -np 4 --timeout 2 "$VICTIM" hang 1
    else
        start_job env MPIEXEC_TIMEOUT=2 "$MPIRUN" -np 4 "$VICTIM" hang 1
    fi
    wait_ready
    finish_job
    took=$(awk -v a="$t0" -v b="$END" 'BEGIN { printf "%.2f", b - a }')
    expect_status 124
    expect_lines "$ERR" '^mpirun: '
    expect_lines "$ERR" '^mpirun: .*timed out after 2 s'
    awk -v t="$took" 'BEGIN { exit !(t >= 1.9 && t < 4) }' ||
        fail "--timeout 2 ended the job after $took s"
    ranks_gone 0.2
    expect_shm_clean
done
pass
