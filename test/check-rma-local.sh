#!/usr/bin/env bash
# check-rma-local: mpirun --check reports a target's own store or load of window bytes that a remote MPI_Put or MPI_Get of the same epoch touches (an MPI_Win_allocate window in a fence epoch, an MPI_Win_allocate_shared one under MPI_Win_lock_all) in one "shmpi check:" line each, naming the local access (rank, load or store, byte of the window, address) and the remote one (origin rank, call, target bytes), and ends the job with 123; accesses to other bytes of the same pages are not reported, and the corrected twin (a fence, or a flush, a message and MPI_Win_sync, between the two; a load beside a pending get) reports nothing and ends with 0, as does the erroneous one without the mode.
# shmpi-test: timeout=120
# shmpi-test-nocheck: it tests the check mode itself, running an erroneous helper with the mode and without it and expecting no report without it.
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

L="^shmpi check: rank 0: local access to window memory conflicting with an RMA access in one epoch \(MPI-3.1 11.7\): rank 0's"
A="\(address 0x[0-9a-f]+, window #[0-9]+\) and rank 1's"
F="; fix: complete the remote access and synchronize before the local one"
check_helper check_rma_local 3 \
    "$L store of byte 4 of its window $A MPI_Put\(target=0, disp=0, 16 bytes, window #[0-9]+\), to bytes 0-15 of it$F" 1 \
    "$L load of byte 36 of its window $A MPI_Put\(target=0, disp=8, 16 bytes, window #[0-9]+\), to bytes 32-47 of it$F" 1 \
    "$L store of byte 72 of its window $A MPI_Get\(target=0, disp=16, 16 bytes, window #[0-9]+\), to bytes 64-79 of it$F" 1

pass
