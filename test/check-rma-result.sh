#!/usr/bin/env bash
# check-rma-result: mpirun --check reports the result buffer of MPI_Get, MPI_Get_accumulate, MPI_Fetch_and_op, MPI_Compare_and_swap, MPI_Rget and MPI_Rget_accumulate read or written by the origin before the call that completes the operation (fence, unlock, flush, flush_local; for the request forms the MPI_Wait or MPI_Test of their request) in one "shmpi check:" line each, naming the call, the byte and whether it was read or written, and ends the job with 123; accesses to other bytes of the watched pages are not reported, and the corrected twin reports nothing and ends with 0, as does the erroneous one without the mode; a crash while a result is watched still ends the rank by SIGSEGV with the launcher's line.
# shmpi-test: timeout=120
# shmpi-test-nocheck: it tests the check mode itself, running an erroneous helper with the mode and without it and expecting no report without it.
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

R="^shmpi check: rank 0: RMA result buffer accessed before the operation completed \(MPI-3.1 11.3\): "
W="window #[0-9]+\)"
F="before the call that completes it; fix: do not read or write the result buffer until the call"
Q="before the call that completes it; fix: do not read or write the result buffer until MPI_Wait or MPI_Test says its request is complete"
check_helper check_rma_result 6 \
    "${R}MPI_Get\(result=0x[0-9a-f]+, count=4, MPI_INT, target=1, disp=0, $W, byte 8 of its result read $F" 1 \
    "${R}MPI_Get_accumulate\(result=0x[0-9a-f]+, count=4, MPI_INT, target=1, disp=0, $W, byte 0 of its result written $F" 1 \
    "${R}MPI_Fetch_and_op\(result=0x[0-9a-f]+, count=1, MPI_INT, target=1, disp=1, $W, byte 0 of its result read $F" 1 \
    "${R}MPI_Compare_and_swap\(result=0x[0-9a-f]+, count=1, MPI_INT, target=1, disp=3, $W, byte 0 of its result read $F" 1 \
    "${R}MPI_Rget\(result=0x[0-9a-f]+, count=4, MPI_INT, target=1, disp=0, $W, byte 4 of its result read $Q" 1 \
    "${R}MPI_Rget_accumulate\(result=0x[0-9a-f]+, count=4, MPI_INT, target=1, disp=0, $W, byte 12 of its result written $Q" 1

# a fault outside the watched pages goes to the handler before the
# mode's: the default one (the rank dies of SIGSEGV, the launcher says
# so), or a sanitizer's in a SANITIZE=1 or check-tsan build, which
# reports it and exits with its own status (1; 66, test/run-tests)
start_job "$MPIRUN" --check -np 2 "$TEST_BIN/check_rma_result" crash
finish_job
if [ -e "$SHMPI_ROOT/lib/.flavor-san" ]; then
    expect_status 1
    expect_lines "$ERR" "ERROR: AddressSanitizer: SEGV on unknown address"
elif [ -e "$SHMPI_ROOT/lib/.flavor-tsan" ]; then
    expect_status 66
    expect_lines "$ERR" "ERROR: ThreadSanitizer: SEGV on unknown address"
else
    expect_status 139
    expect_lines "$ERR" '^mpirun: rank 0 \(pid [0-9]+\) was killed by signal 11 \(Segmentation fault.*\); job aborted$'
fi
expect_shm_clean

pass
