#!/usr/bin/env bash
# check-sig: mpirun --check reports a receive whose type signature differs from its message's (MPI-3.1 3.3.1) in one line on the receiving rank naming the send (rank, call, count, type) and the receive (call, count, type), status 123, for eager, rendezvous, synchronous, buffered, self, matched-probe and longer receives; same signatures through other layouts, MPI_BYTE/MPI_PACKED, empty messages and every other send/receive call pass silently with 0, as do the mismatches without the mode.
# shmpi-test: timeout=180
# shmpi-test-nocheck: it tests the check mode itself, running erroneous helpers with the mode and without it and expecting no report without it.
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

H=$TEST_BIN/check_recv_sig
S='receive type signature does not match the message.s \(MPI-3.1 3.3.1\): '
FIX='; fix: receive with the basic types the message was sent with, in the same order \(or send and receive MPI_BYTE, or MPI_PACKED with MPI_Pack/MPI_Unpack\)$'

# (form, receiving rank, the calls): under --check exactly that line and
# 123; without the mode nothing and 0
bad() {
    local form=$1 rank=$2 calls=$3
    start_job "$MPIRUN" --check -np 2 "$H" "$form"
    finish_job
    expect_status 123
    expect_lines "$ERR" '^shmpi check: ' 1
    expect_lines "$ERR" "^shmpi check: rank $rank: $S$calls, on MPI_COMM_WORLD$FIX" 1
    expect_lines "$ERR" '^mpirun: --check reported 1 problem$' 1
    expect_shm_clean
    run_quiet -np 2 "$H" "$form"
}

bad int-float 1 'MPI_Send\(count=4, MPI_INT, tag=1\) on rank 0 sent 16 bytes that MPI_Recv\(count=4, MPI_FLOAT\) received'
bad struct 1 'MPI_Send\(count=1, a derived datatype of 16 bytes, tag=2\) on rank 0 sent 16 bytes that MPI_Irecv\(count=2, MPI_DOUBLE\) received'
bad large 1 'MPI_Send\(count=100000, MPI_INT, tag=3\) on rank 0 sent 400000 bytes that MPI_Recv\(count=100000, MPI_FLOAT\) received'
bad ssend 1 'MPI_Ssend\(count=4, MPI_DOUBLE, tag=4\) on rank 0 sent 32 bytes that MPI_Recv\(count=8, MPI_INT\) received'
bad bsend 1 'MPI_Bsend\(count=4, MPI_INT, tag=5\) on rank 0 sent 16 bytes that MPI_Recv\(count=4, MPI_UNSIGNED\) received'
bad int32 1 'MPI_Send\(count=4, MPI_INT, tag=6\) on rank 0 sent 16 bytes that MPI_Recv\(count=4, MPI_INT32_T\) received'
bad prefix 1 'MPI_Send\(count=3, MPI_INT, tag=7\) on rank 0 sent 12 bytes that MPI_Recv\(count=8, MPI_FLOAT\) received'
bad mrecv 1 'MPI_Send\(count=3, MPI_FLOAT, tag=8\) on rank 0 sent 12 bytes that MPI_Recv\(count=3, MPI_INT\) received'
bad self 0 'MPI_Isend\(count=2, MPI_LONG, tag=9\) on rank 0 sent 16 bytes that MPI_Recv\(count=2, MPI_DOUBLE\) received'

# the matching twins, under --check: nothing said, status 0
run_quiet --check -np 2 "$H" ok

# SHMPI_CHECK=1 under the in-library launch does the same
start_job env SHMPI_CHECK=1 SHMPI_NP=2 "$H" int-float
finish_job
expect_status 123
expect_lines "$ERR" "^shmpi check: rank 1: $S" 1
expect_lines "$ERR" '^shmpi: --check reported 1 problem$' 1
expect_shm_clean
pass
