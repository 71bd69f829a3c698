#!/usr/bin/env bash
# not-found: a program that does not exist gives status 127, one that cannot be executed 126, each with one line and no /dev/shm entry left.
# shmpi-test: timeout=60
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

start_job "$MPIRUN" -np 2 /nonexistent/dir/program
finish_job
expect_status 127
expect_lines "$ERR" '^mpirun: '
expect_lines "$ERR" '/nonexistent/dir/program'

start_job "$MPIRUN" -np 2 shmpi-no-such-program-anywhere
finish_job
expect_status 127
expect_lines "$ERR" '^mpirun: .*shmpi-no-such-program-anywhere'

noexec=$TEST_TMPDIR/not-executable
echo "echo hi" >"$noexec"
chmod 644 "$noexec"
start_job "$MPIRUN" -np 2 "$noexec"
finish_job
expect_status 126
expect_lines "$ERR" '^mpirun: .*not-executable'

# a program that is not MPI at all runs fine
start_job "$MPIRUN" -np 3 echo hello
finish_job
expect_status 0
expect_lines "$OUT" '^hello$' 3
expect_shm_clean
pass
