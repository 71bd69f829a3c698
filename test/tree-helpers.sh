#!/usr/bin/env bash
# tree-helpers: helpers a rank started with fork() or in the background of system() end with the job (normal end, failed rank, kill -9 of mpirun), with mpirun and with the in-library launch (SHMPI_NP); one in a session of its own (setsid) too, except after kill -9; /dev/shm clean.
# shmpi-test: timeout=90
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

wait_helpers() {
    local i
    for ((i = 0; i < 400; i++)); do
        [ -e "$TEST_TMPDIR/helper.fork" ] && [ -e "$TEST_TMPDIR/helper.sys" ] &&
            [ -e "$TEST_TMPDIR/helper.setsid" ] && return 0
        kill -0 "$job_pid" 2>/dev/null || fail "the job ended before its helpers were started"
        sleep 0.05
    done
    fail "the helpers were not started after 20 s"
}

helper_pids() { cat "$TEST_TMPDIR/helper.fork" "$TEST_TMPDIR/helper.sys"; }
setsid_pid() { cat "$TEST_TMPDIR/helper.setsid"; }

for how in mpirun in-library; do
    if [ $how = mpirun ]; then
        launch() { start_job "$MPIRUN" -np "$1" "$VICTIM" "${@:2}"; }
    else
        launch() { start_job env SHMPI_NP="$1" "$VICTIM" "${@:2}"; }
    fi

    # the job ends well, the helpers would run on
    launch 3 helpers 1 0
    finish_job
    expect_status 0
    pids_gone 1 $(helper_pids) $(setsid_pid)
    expect_shm_clean
    echo "$how, normal end: helpers gone"

    # the launcher is SIGKILLed while rank 1 and its helpers run
    launch 3 helpers 1 1
    wait_ready
    wait_helpers
    signal_launcher KILL
    finish_job
    expect_status 137
    ranks_gone 2
    pids_gone 1 $(helper_pids)
    kill -KILL "$(setsid_pid)" # left its rank's group: escapes, as documented
    expect_shm_clean
    echo "$how, kill -9 of the launcher: helpers gone"

    # another rank fails
    launch 3 helpers 1 1
    wait_ready
    wait_helpers
    kill -KILL "$(cat "$TEST_TMPDIR/pid.2")"
    finish_job
    expect_status 137
    ranks_gone 1
    pids_gone 1 $(helper_pids) $(setsid_pid)
    expect_shm_clean
    echo "$how, a failed rank: helpers gone"
done
pass
