#!/usr/bin/env bash
# embed: a program started without mpirun is a singleton, or with SHMPI_NP=4 a 4-rank job whose first process is the launcher; failures aggregate as under mpirun.
# shmpi-test: timeout=60
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0"
export TSAN_OPTIONS="${TSAN_OPTIONS:+$TSAN_OPTIONS:}handle_segv=0"

# singleton
start_job env -u SHMPI_NP "$VICTIM" info
finish_job
expect_status 0
expect_lines "$OUT" '^rank 0 of 1$'
[ "$(wc -l <"$OUT")" = 1 ] || fail "a singleton printed $(wc -l <"$OUT") lines"
[ ! -s "$ERR" ] || fail "a singleton printed on stderr"
expect_shm_clean

# SHMPI_NP=4: four ranks, one line each
start_job env SHMPI_NP=4 "$VICTIM" info
finish_job
expect_status 0
for r in 0 1 2 3; do expect_lines "$OUT" "^rank $r of 4\$"; done
[ "$(wc -l <"$OUT")" = 4 ] || fail "SHMPI_NP=4 printed $(wc -l <"$OUT") lines"
[ ! -s "$ERR" ] || fail "a clean embedded job printed on stderr"
launcher=$job_pid_done
for p in $(rank_pids); do
    [ "$p" != "$launcher" ] || fail "the launching process is also a rank"
done
ranks_gone 0.2
expect_shm_clean

# a failing rank: the same status and line as under mpirun
start_job env SHMPI_NP=3 "$VICTIM" exit 2 3
wait_ready
finish_job
expect_status 3
expect_lines "$ERR" 'rank 2 \(pid [0-9]+\) exited with status 3; job aborted$'
expect_fast 1
ranks_gone 0.2
expect_shm_clean

start_job env SHMPI_NP=4 "$VICTIM" segv 1
wait_ready
finish_job
expect_status 139
expect_lines "$ERR" 'rank 1 \(pid [0-9]+\) was killed by signal 11'
expect_fast 1
ranks_gone 0.2

start_job env SHMPI_NP=2 "$VICTIM" abort 1 9
wait_ready
finish_job
expect_status 9
expect_lines "$ERR" 'rank 1 called MPI_Abort\(MPI_COMM_WORLD, 9\)'
ranks_gone 0.2
expect_shm_clean
pass
