#!/usr/bin/env bash
# deadlock-none: what only looks stuck is not reported as a deadlock - a rank computing 3 s while the other waits in MPI_Recv, a 64 MiB rendezvous send whose receiver comes 1.5 s late, 8 oversubscribed ranks in a barrier waiting 3 s for a slow one, a rank with one thread in MPI_Recv and one computing outside MPI, 3 ranks waiting 2 s in MPI_Bcast for a late root and in MPI_Win_fence for a late rank, SHMPI_DEADLOCK_MS=100 too; garbage in the tunables is one line naming the variable.
# shmpi-test: timeout=180
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

STUCK=$TEST_BIN/stuck

run_ok() { # np args...
    local np=$1
    shift
    start_job "$MPIRUN" -np "$np" "$STUCK" "$@"
    finish_job
    expect_status 0
    expect_no_lines "$ERR" 'deadlock|hang'
    ranks_gone 0.2
    expect_shm_clean
}

# The default period and a tenth of it, which gives the detector ten
# times the chances to be wrong.  A sanitizer build, which looks at
# memory and threads and not at timing, runs the stricter period only:
# each pass waits about 15 s for the slow ranks whatever the build.
periods='1000 100'
[ -n "${SANFLAGS:-}" ] && periods=100
for ms in $periods; do
    export SHMPI_DEADLOCK_MS=$ms
    run_ok 2 compute 3
    run_ok 2 large 64
    run_ok 8 slow 3
    run_ok 2 threads-compute 3
    STUCK=$TEST_BIN/collstuck run_ok 3 slow 2
    STUCK=$TEST_BIN/rmastuck run_ok 3 slow 2
done
unset SHMPI_DEADLOCK_MS

# garbage: one line naming the variable, usage status, nothing started
for v in SHMPI_DEADLOCK_MS=abc SHMPI_DEADLOCK_MS=-1 SHMPI_DEADLOCK_MS=99999999 \
    SHMPI_HANG_REPORT=soon SHMPI_HANG_REPORT=-2 SHMPI_HANG_REPORT=1e9; do
    start_job env "$v" "$MPIRUN" -np 2 "$STUCK" headon
    finish_job
    expect_status 2
    expect_lines "$ERR" "^mpirun: ${v%%=*}='"
    expect_lines "$ERR" '.' 1
    expect_shm_clean
done
pass
