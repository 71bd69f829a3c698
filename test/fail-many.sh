#!/usr/bin/env bash
# fail-many: when every rank of 64 (oversubscribed) fails at once, mpirun prints one line naming the first and counting the others, and at most that rank's own line is printed (fatal error, MPI_Abort, exit, SIGSEGV).
# shmpi-test: timeout=120
# shmpi-test-skip tsan: the 64 ranks are single-threaded processes that fail at once, so ThreadSanitizer has no two threads to watch, and its runtime in 64 oversubscribed processes took 77 s of the TSan step (2026-11-30); the ASan step runs it.
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"
# a sanitizer build: let SIGSEGV kill the rank, as without one
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0"
export TSAN_OPTIONS="${TSAN_OPTIONS:+$TSAN_OPTIONS:}handle_segv=0"

others='(; [0-9]+ other ranks? failed too)?$'
# Three rounds a mode, each one more chance for a second rank's line to
# slip through; a sanitizer build, which looks at each process's memory
# and not at that race, runs one (its runtime in 64 oversubscribed
# processes made the three take 69 s of the ASan step, 2026-11-30).
rounds=3
[ -n "${SANFLAGS:-}" ] && rounds=1
check() { # mode args... -- regex of the mpirun line
    local i
    for ((i = 0; i < rounds; i++)); do
        start_job "$MPIRUN" -np 64 "$VICTIM" "$@"
        finish_job
        expect_lines "$ERR" '^mpirun: '
        expect_lines "$ERR" "^mpirun: rank [0-9]+ $what; job aborted$others"
        local own
        own=$(grep -c '^shmpi: ' "$ERR")
        [ "$own" -le 1 ] || fail "$* : $own lines from the ranks themselves, expected at most 1"
        [ "$(wc -l <"$ERR")" -le 2 ] || fail "$* : $(wc -l <"$ERR") lines on stderr"
        tail -n 1 "$ERR"
        ranks_gone 1
        expect_shm_clean
    done
}

what='hit a fatal MPI error \(MPI_Comm_rank: MPI_ERR_ARG\)'
check fatal -1
expect_status 13
what='called MPI_Abort\(MPI_COMM_WORLD, 3\)'
check abort -1 3
expect_status 3
what='\(pid [0-9]+\) exited with status 3'
check exit -1 3
expect_status 3
what='\(pid [0-9]+\) was killed by signal 11 \(Segmentation fault\)'
check segv -1
expect_status 139
pass
