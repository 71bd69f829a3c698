#!/usr/bin/env bash
# ptracer: a rank whose window memory peers reach with process_vm names the launcher (mpirun, or the in-library launcher) with PR_SET_PTRACER, also under a wrapper script; a singleton names nobody (checked with strace).
# shmpi-test: timeout=60
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"
# a sanitizer build: LeakSanitizer cannot work under ptrace (strace)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

command -v strace >/dev/null || fail "this test needs strace"
log=$TEST_TMPDIR/strace.log

traced() { # command... : runs it under strace -f, prctl calls to $log
    strace -f -qq -o "$log" -e trace=prctl "$@" >"$OUT" 2>"$ERR"
    STATUS=$?
}

# the pid that made itself the child subreaper is the launcher
launcher_pid() { awk '/PR_SET_CHILD_SUBREAPER, 1/ { print $1; exit }' "$log"; }

tracers() { # the pids named with PR_SET_PTRACER, one per line
    sed -n 's/.*prctl(PR_SET_PTRACER, \([0-9]*\).*/\1/p' "$log"
}

expect_tracer() { # how np
    local l
    l=$(launcher_pid)
    [ -n "$l" ] || fail "$1: no launcher in the strace log"
    [ "$(tracers | wc -l)" = "$2" ] || fail "$1: $(tracers | wc -l) PR_SET_PTRACER calls, expected $2"
    [ -z "$(tracers | grep -vx "$l")" ] ||
        fail "$1: PR_SET_PTRACER named $(tracers | sort -u | tr '\n' ' ')but the launcher is $l"
    expect_status 0
    expect_lines "$OUT" '^stack-window ok$' "$2"
    echo "$1: $2 ranks named the launcher $l"
}

traced "$MPIRUN" -np 3 "$VICTIM" stack-window
expect_tracer mpirun 3

wrapper=$TEST_TMPDIR/run.sh
printf '#!/bin/sh\n"%s" "$@"\nexit $?\n' "$VICTIM" >"$wrapper"
chmod +x "$wrapper"
traced "$MPIRUN" -np 3 "$wrapper" stack-window
expect_tracer "mpirun, wrapper" 3

traced env SHMPI_NP=2 "$VICTIM" stack-window
expect_tracer in-library 2

traced "$VICTIM" stack-window
expect_status 0
expect_lines "$OUT" '^stack-window ok$'
[ "$(tracers | wc -l)" = 0 ] || fail "a singleton named $(tracers | tr '\n' ' ')as its tracer"
echo "singleton: named nobody"
expect_shm_clean
pass
