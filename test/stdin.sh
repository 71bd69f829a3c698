#!/usr/bin/env bash
# stdin: mpirun's stdin goes to rank 0; the other ranks read end-of-file at once.
# shmpi-test: timeout=60
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

head -c 100000 /dev/zero | tr '\0' 'x' >"$TEST_TMPDIR/input"
"$MPIRUN" -np 3 "$VICTIM" stdin <"$TEST_TMPDIR/input" >"$OUT" 2>"$ERR"
STATUS=$?
expect_status 0
expect_lines "$OUT" '^rank 0 read 100000 bytes$'
expect_lines "$OUT" '^rank [12] read 0 bytes$' 2

# from a pipe that stays open only as long as its writer
{ echo hello; sleep 0.3; echo world; } | "$MPIRUN" -np 2 "$VICTIM" stdin >"$OUT" 2>"$ERR"
STATUS=$?
expect_status 0
expect_lines "$OUT" '^rank 0 read 12 bytes$'
expect_lines "$OUT" '^rank 1 read 0 bytes$'
expect_shm_clean
pass
