#!/usr/bin/env bash
# check: mpirun --check (and SHMPI_CHECK=1, also under the in-library launch) reports each erroneous helper's mistakes in one "shmpi check:" line naming the rule, the MPI-3.1 section and the calls, and ends the job with 123; the corrected twin reports nothing and ends with 0; without the mode nothing is reported; SHMPI_CHECK=garbage is an error naming it.
# shmpi-test: timeout=120
# shmpi-test-nocheck: it tests the check mode itself, running erroneous helpers with the mode and without it and expecting no report without it.
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

C='^shmpi check: rank [0-9]+: '

# (expected problems, helper, args...): under --check, the lines and 123
run_bad() {
    local n=$1
    shift
    start_job "$MPIRUN" --check -np 2 "$TEST_BIN/$1" "${@:2}"
    finish_job
    expect_status 123
    expect_lines "$ERR" "$C" "$n"
    expect_lines "$ERR" "^mpirun: --check reported $n problems?\$"
    expect_shm_clean
}

# (helper, problems, then regex and count pairs): the erroneous helper
# under --check prints each regex's lines, count times; its twin ("ok")
# under --check and itself without it say nothing
check_helper() {
    local h=$1 n=$2
    shift 2
    run_bad "$n" "$h"
    for ((; $# >= 2; )); do
        expect_lines "$ERR" "$1" "$2"
        shift 2
    done
    run_quiet --check -np 2 "$TEST_BIN/$h" ok
    run_quiet -np 2 "$TEST_BIN/$h"
}

# the send buffer of a nonblocking send written before its completion
B="${C}send buffer modified before the send completed \(MPI-3.1 3.7.2\): "
check_helper check_sendbuf 4 \
    "${B}MPI_Isend\(buf=0x[0-9a-f]+, count=4, MPI_INT, dest=1, tag=7, MPI_COMM_WORLD\) and its completion in MPI_Wait; fix: " 1 \
    "${B}MPI_Start of MPI_Send_init\(buf=0x[0-9a-f]+, count=4, MPI_INT, dest=1, tag=8, MPI_COMM_WORLD\) and its completion in MPI_Waitall; fix: " 1 \
    "${B}MPI_Isendrecv\(.*tag=9.*\) and its completion in MPI_Test; fix: " 1 \
    "${B}MPI_Ibsend\(.*tag=11, MPI_COMM_WORLD\) and its completion in MPI_Waitany; fix: " 1

# point-to-point communication and objects left at MPI_Finalize
F='\(MPI-3.1 8.7\): '
check_helper check_finalize 15 \
    "^shmpi check: rank 1: messages arrived and were never received ${F}3 at MPI_Finalize, the first from world rank 0, tag 5, 4 bytes, on MPI_COMM_WORLD; fix: " 1 \
    "^shmpi check: rank 1: receives never completed ${F}1 posted and unmatched at MPI_Finalize, the first of count=1 from rank 0 \(rank 0 in MPI_COMM_WORLD\), tag 6; fix: " 1 \
    "^shmpi check: rank 0: nonblocking sends never completed or freed ${F}1 at MPI_Finalize, the first MPI_Isend\(buf=0x[0-9a-f]+, count=1, MPI_INT, dest=1, tag=7, MPI_COMM_WORLD\); fix: " 1 \
    "^shmpi check: rank 0: windows never freed ${F}1 at MPI_Finalize, made by MPI_Win_allocate \(1\), the first named \"halo\"; fix: call MPI_Win_free" 1 \
    "^shmpi check: rank 1: windows never freed ${F}1 at MPI_Finalize, made by MPI_Win_allocate \(1\); fix: " 1 \
    "^shmpi check: rank 0: persistent requests never freed ${F}1 at MPI_Finalize, made by MPI_Send_init \(1\); fix: " 1 \
    "^shmpi check: rank 1: persistent requests never freed ${F}1 at MPI_Finalize, made by MPI_Recv_init \(1\); fix: " 1 \
    "^shmpi check: rank 0: communicators never freed ${F}3 at MPI_Finalize, made by MPI_Comm_dup \(2\), MPI_Comm_split \(1\), the first named \"left\"; fix: call MPI_Comm_free" 1 \
    "^shmpi check: rank 1: communicators never freed ${F}3 at MPI_Finalize, made by MPI_Comm_dup \(2\), MPI_Comm_split \(1\); fix: " 1 \
    "^shmpi check: rank 0: datatypes never freed ${F}2 at MPI_Finalize, made by MPI_Type_vector \(1\), MPI_Type_contiguous \(1\), the first named \"column\"; fix: call MPI_Type_free" 1 \
    "^shmpi check: rank 1: datatypes never freed ${F}2 at MPI_Finalize, made by MPI_Type_vector \(1\), MPI_Type_contiguous \(1\); fix: " 1 \
    "^shmpi check: rank [01]: groups never freed ${F}2 at MPI_Finalize, made by MPI_Comm_group \(1\), MPI_Group_incl \(1\), the first of size 2; fix: call MPI_Group_free" 2 \
    "^shmpi check: rank [01]: generalized requests never completed or freed ${F}1 at MPI_Finalize, made by MPI_Grequest_start \(1\); fix: call MPI_Grequest_complete" 2

# an op on a type outside its groups: once per op and type, in each rank
O="${C}(reduction|accumulate) op on a type outside the op's groups \(MPI-3.1 5.9.2\): "
check_helper check_op_type 6 \
    "${O}MPI_Allreduce\(\.\.\., MPI_CHAR, MPI_SUM, \.\.\.\) .*; fix: use a type of MPI_SUM's groups \(C integer, " 2 \
    "${O}MPI_Reduce_local\(\.\.\., MPI_AINT, MPI_LAND, \.\.\.\)" 2 \
    "^shmpi check: rank [01]: accumulate op .*MPI_Accumulate\(\.\.\., MPI_CHAR, MPI_SUM, \.\.\.\)" 2

# SHMPI_CHECK=1 as --check, under mpirun and under the in-library launch
start_job env SHMPI_CHECK=1 "$MPIRUN" -np 2 "$TEST_BIN/check_sendbuf"
finish_job
expect_status 123
expect_lines "$ERR" "$B" 4
start_job env SHMPI_CHECK=1 SHMPI_NP=2 "$TEST_BIN/check_sendbuf"
finish_job
expect_status 123
expect_lines "$ERR" "$B" 4
expect_lines "$ERR" '^shmpi: --check reported 4 problems$'
expect_shm_clean

# garbage: one line naming the variable, status 2, no rank started
start_job env SHMPI_CHECK=garbage "$MPIRUN" -np 2 "$TEST_BIN/check_sendbuf"
finish_job
expect_status 2
expect_lines "$ERR" "^mpirun: SHMPI_CHECK='garbage': "
expect_no_lines "$ERR" 'shmpi check:'
pass
