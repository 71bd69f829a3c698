#!/usr/bin/env bash
# mpivars: examples/mpivars.c, built with mpicc and run under mpirun, lists every tunable of mpirun --show-tunables as a control variable with the value in effect (SHMPI_EAGER_LIMIT and SHMPI_SPIN_US as the environment sets them, SHMPI_BIND_TO by its enumeration's item), every performance variable with a value (a state by its enumeration's item, a per-peer counter one value per rank of MPI_COMM_WORLD, one bound to a window as such), the categories with their members, and the events of MPI-4.0 with their source.
# shmpi-test: timeout=120
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

cd "$TEST_TMPDIR" || fail "cannot cd to $TEST_TMPDIR"
# shellcheck disable=SC2086
"$SHMPI_ROOT/mpicc" ${SANFLAGS:-} -Wall -Wextra -Werror -o mpivars \
    "$SHMPI_ROOT/examples/mpivars.c" || fail "mpicc cannot build mpivars.c"

"$MPIRUN" --show-tunables >tunables 2>&1 || fail "mpirun --show-tunables"
tunables=$(sed -n 's/^\([A-Z_][A-Z0-9_]*\) = .*/\1/p' tunables)
[ "$(echo "$tunables" | wc -w)" -ge 17 ] || fail "too few tunables: $tunables"

start_job env SHMPI_EAGER_LIMIT=8192 SHMPI_SPIN_US=3 "$MPIRUN" -np 2 ./mpivars
finish_job
expect_status 0
n=$(echo "$tunables" | wc -w)
expect_lines "$OUT" "^control variables: $n\$" 1
for t in $tunables; do
    expect_lines "$OUT" "^  $t = [^(]" 1
done
expect_lines "$OUT" '^  SHMPI_EAGER_LIMIT = 8192  \[readonly\]$' 1
expect_lines "$OUT" '^  SHMPI_SPIN_US = 3  \[local\]$' 1
expect_lines "$OUT" '^  SHMPI_BIND_TO = (unset \(-1\)|core \(0\)|none \(1\))  \[readonly\]$' 1
for p in shmpi_arena_bytes shmpi_arena_fixed_bytes shmpi_coll_areas_used \
         shmpi_alloc_mem_bytes shmpi_comm_contexts; do
    expect_lines "$OUT" "^  $p = [0-9]+  \[" 1
done
expect_lines "$OUT" '^  shmpi_unexpected_over = no \(0\)  \[state, continuous, readonly\]$' 1
expect_lines "$OUT" '^performance variables: 18$' 1
expect_lines "$OUT" '^  shmpi_p2p_messages_sent = 0 0  \[counter\]$' 1
expect_lines "$OUT" '^  shmpi_comm_lane = [0-9]+  \[generic, continuous, readonly\]$' 1
expect_lines "$OUT" '^  shmpi_rma_puts = \(bound to an object\)  \[counter\]$' 1
expect_no_lines "$OUT" 'cannot be read'
expect_lines "$OUT" '^categories: 9$' 1
expect_lines "$OUT" '^      categories: shmpi_launch shmpi_arena shmpi_pt2pt shmpi_coll shmpi_comm shmpi_wait shmpi_memory shmpi_rma$' 1
expect_lines "$OUT" '^events: 3$' 1
expect_lines "$OUT" '^  shmpi_unexpected_message: 4 elements$' 1
expect_lines "$OUT" '^  shmpi_comm_created: 2 elements$' 1
expect_lines "$OUT" '^  shmpi_clock: 1000000000 ticks/s, unordered$' 1
expect_lines "$OUT" '^      cvars: SHMPI_SPIN_US SHMPI_YIELDS$' 1
pass
