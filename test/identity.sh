#!/usr/bin/env bash
# identity: a program a rank runs before MPI_Init, or a child it fork()s before or after, cannot call MPI as that rank: one line each, the rank and the job go on; a wrapper that runs the program as its child still works, and its second MPI program is refused.
# shmpi-test: timeout=60
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

for how in mpirun in-library; do
    if [ $how = mpirun ]; then
        start_job "$MPIRUN" -np 3 "$VICTIM" children 1
    else
        start_job env SHMPI_NP=3 "$VICTIM" children 1
    fi
    finish_job
    expect_status 0
    # MPI_ERR_OTHER is 16: each child ended with it, right at its call
    expect_lines "$OUT" '^children: system 16 fork 16 fork-after 16$'
    expect_no_lines "$OUT" 'joined'
    expect_lines "$ERR" '^shmpi: MPI_Init: this process \(pid [0-9]+\) is not rank 1 \(pid [0-9]+\): a program or child a rank starts cannot call MPI_Init \(MPI_ERR_OTHER\)$' 2
    expect_lines "$ERR" '^shmpi: MPI_Comm_rank: this process \(pid [0-9]+\) is not rank 1 \(pid [0-9]+\): a child a rank made with fork\(\) cannot use MPI \(MPI_ERR_OTHER\)$'
    [ "$(wc -l <"$ERR")" = 3 ] || fail "expected 3 lines on stderr"
    expect_shm_clean
    echo "$how: the children were refused, the job went on"
done

# a wrapper runs two MPI programs one after the other: the first is the
# rank, the second is refused
wrapper=$TEST_TMPDIR/run.sh
printf '#!/bin/sh\n"%s" init-only\n"%s" init-only\necho "second: $?"\n' \
    "$VICTIM" "$VICTIM" >"$wrapper"
chmod +x "$wrapper"
start_job "$MPIRUN" -np 2 "$wrapper"
finish_job
expect_status 0
expect_lines "$OUT" '^init-only: rank [01] joined$' 2
expect_lines "$OUT" '^second: 16$' 2
expect_lines "$ERR" '^shmpi: MPI_Init: this process \(pid [0-9]+\) is not rank [01] \(pid [0-9]+\): that process already called MPI_Init as this rank \(MPI_ERR_OTHER\)$' 2
expect_shm_clean
pass
