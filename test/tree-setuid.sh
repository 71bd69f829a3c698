#!/usr/bin/env bash
# tree-setuid: a set-user-ID rank program (execve clears its parent-death signal) is killed when mpirun is killed with SIGKILL, and when the in-library launcher is.
# shmpi-test: timeout=60
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

# a set-user-ID copy of the sleeper, owned by another user: it runs with
# that effective uid, and the kernel drops its PR_SET_PDEATHSIG at exec
[ "$(id -u)" = 0 ] || fail "this test makes a set-user-ID program of another user: run it as root"
suid=$TEST_TMPDIR/sleeper-suid
cp "$TEST_BIN/sleeper" "$suid"
chown nobody "$suid"
chmod 4755 "$suid"
nobody=$(id -u nobody)

sleeper_pids() {
    local i
    for ((i = 0; i < 400; i++)); do
        [ "$(grep -c '^sleeper pid' "$OUT")" = 2 ] && break
        kill -0 "$job_pid" 2>/dev/null || fail "the job ended early"
        sleep 0.05
    done
    [ "$(grep -c "^sleeper pid [0-9]* euid $nobody\$" "$OUT")" = 2 ] ||
        fail "the sleepers did not run set-user-ID (nosuid mount?)"
    awk '/^sleeper pid/ { print $3 }' "$OUT" | tee "$TEST_TMPDIR/helper.suid"
}

start_job "$MPIRUN" -np 2 "$suid"
pids=$(sleeper_pids)
signal_launcher KILL
finish_job
expect_status 137
pids_gone 1 $pids
expect_shm_clean
echo "mpirun: set-user-ID ranks gone"

# the in-library launch: a program that starts its own ranks, which exec
# the sleeper
start_job env SHMPI_NP=2 SHMPI_EXEC="$suid" "$VICTIM" exec-env
pids=$(sleeper_pids)
signal_launcher KILL
finish_job
expect_status 137
pids_gone 1 $pids
expect_shm_clean
echo "in-library launch: set-user-ID ranks gone"
pass
