#!/usr/bin/env bash
# mpirun-sigtstp: SIGTSTP to mpirun (Ctrl-Z) stops every rank and then mpirun; SIGCONT (fg) continues them all, and the job then ends normally on SIGTERM.
# shmpi-test: timeout=60
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

state() { awk '{print $3}' "/proc/$1/stat" 2>/dev/null; }

all_in_state() { # want(T or not-T) pid...
    local want=$1 p i
    shift
    for ((i = 0; i < 200; i++)); do
        local ok=1
        for p in "$@"; do
            s=$(state "$p")
            if [ "$want" = T ]; then [ "$s" = T ] || ok=0; else [ "$s" != T ] || ok=0; fi
        done
        [ $ok = 1 ] && return 0
        sleep 0.01
    done
    return 1
}

start_job "$MPIRUN" -np 3 "$VICTIM" hang 1
wait_ready
sleep 0.2
pids=$(rank_pids)
kill -TSTP "$job_pid"
all_in_state T $pids "$job_pid" || fail "after SIGTSTP: states $(for p in $pids $job_pid; do echo -n "$p:$(state $p) "; done)"
echo "SIGTSTP: mpirun and every rank stopped"
kill -CONT "$job_pid"
all_in_state running $pids "$job_pid" || fail "after SIGCONT: states $(for p in $pids $job_pid; do echo -n "$p:$(state $p) "; done)"
echo "SIGCONT: mpirun and every rank running"
signal_launcher TERM
finish_job
expect_status 143
ranks_gone 1
expect_shm_clean
pass
