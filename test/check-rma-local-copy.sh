#!/usr/bin/env bash
# check-rma-local-copy: mpirun --check takes the library's copies from and into a target's MPI_Win_allocate memory for the target's own accesses - an MPI_Put from, and an MPI_Get into, window bytes that remote MPI_Puts of the same epoch write are reported in one "shmpi check:" line each as rank 0's load and store of them, naming the remote put - and ends the job with 123; the corrected twin, copying from and into other bytes of the same pages (read and written past their protection), reports nothing, moves every value right and ends with 0, as does the erroneous one without the mode.
# shmpi-test: timeout=120
# shmpi-test-nocheck: it tests the check mode itself, running an erroneous helper with the mode and without it and expecting no report without it.
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

L="^shmpi check: rank 0: local access to window memory conflicting with an RMA access in one epoch \(MPI-3.1 11.7\): rank 0's"
A="\(address 0x[0-9a-f]+, window #[0-9]+\) and rank 1's MPI_Put\(target=0"
check_helper check_rma_local_copy 2 \
    "$L load of byte 8 of its window $A, disp=0, 16 bytes, window #[0-9]+\), to bytes 0-15 of it" 1 \
    "$L store of byte 36 of its window $A, disp=8, 16 bytes, window #[0-9]+\), to bytes 32-47 of it" 1

pass
