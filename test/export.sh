#!/usr/bin/env bash
# export: -x NAME=VALUE reaches every rank; mpirun's own environment is passed on too.
# shmpi-test: timeout=60
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

start_job "$MPIRUN" -np 3 -x SHMPI_TEST_X=hello\ world -x SHMPI_TEST_Y=2 "$VICTIM" env SHMPI_TEST_X
finish_job
expect_status 0
expect_lines "$OUT" '^rank [0-2]: SHMPI_TEST_X=hello world$' 3
for r in 0 1 2; do expect_lines "$OUT" "^rank $r: "; done

start_job "$MPIRUN" -np 3 -x SHMPI_TEST_X=hello -x SHMPI_TEST_Y=2 "$VICTIM" env SHMPI_TEST_Y
finish_job
expect_status 0
expect_lines "$OUT" '^rank [0-2]: SHMPI_TEST_Y=2$' 3

export SHMPI_TEST_Z=inherited
start_job "$MPIRUN" -np 2 "$VICTIM" env SHMPI_TEST_Z
finish_job
expect_status 0
expect_lines "$OUT" '^rank [01]: SHMPI_TEST_Z=inherited$' 2

# -x overrides the inherited value
start_job "$MPIRUN" -np 2 -x SHMPI_TEST_Z=override "$VICTIM" env SHMPI_TEST_Z
finish_job
expect_status 0
expect_lines "$OUT" '^rank [01]: SHMPI_TEST_Z=override$' 2
expect_shm_clean
pass
