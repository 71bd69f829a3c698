#!/usr/bin/env bash
# tag-output: --tag-output puts "[rank] " before every line of every rank, on stdout and stderr.
# shmpi-test: timeout=60
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

start_job "$MPIRUN" -np 4 --tag-output "$VICTIM" info
finish_job
expect_status 0
for r in 0 1 2 3; do expect_lines "$OUT" "^\\[$r\\] rank $r of 4\$"; done
expect_no_lines "$OUT" '^[^[]'

start_job "$MPIRUN" -np 3 --tag-output "$VICTIM" print 20 50
finish_job
expect_status 0
for r in 0 1 2; do
    expect_lines "$OUT" "^\\[$r\\] OUT r$r l[0-9]+ " 20
    expect_lines "$ERR" "^\\[$r\\] ERR r$r l[0-9]+ " 5
done
expect_no_lines "$OUT" '^[^[]'
expect_no_lines "$ERR" '^[^[]'

# without it, no prefix
start_job "$MPIRUN" -np 2 "$VICTIM" info
finish_job
expect_status 0
expect_lines "$OUT" '^rank [01] of 2$' 2
pass
