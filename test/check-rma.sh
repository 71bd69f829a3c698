#!/usr/bin/env bash
# check-rma: mpirun --check reports RMA mistakes of the erroneous helpers (an origin buffer written before its operation completed, conflicting accesses of one origin or two to the same target bytes in an epoch, a sync counter freed with signals no round consumed) in one "shmpi check:" line each, naming the rule, the MPI-3.1 section and the calls, and ends the job with 123; the corrected twins report nothing and end with 0; without the mode nothing is reported.
# shmpi-test: timeout=120
# shmpi-test-nocheck: it tests the check mode itself, running erroneous helpers with the mode and without it and expecting no report without it.
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

# origin buffers written before the call that completes their operation
R="^shmpi check: rank 0: RMA origin buffer modified before the operation completed \(MPI-3.1 11.3\): "
P="origin=0x[0-9a-f]+, count=4, MPI_INT, target=1, disp=0, window #[0-9]+\)"
check_helper check_rma_origin 4 \
    "${R}MPI_Put\(${P} and its completion in MPI_Win_fence; fix: " 1 \
    "${R}MPI_Accumulate\(${P} and its completion in MPI_Win_unlock; fix: " 1 \
    "${R}MPI_Get_accumulate\(${P} and its completion in MPI_Win_flush; fix: " 1 \
    "${R}MPI_Put\(${P} and its completion in MPI_Win_complete; fix: " 1

# one origin's conflicting accesses to the same target bytes in an epoch
X="^shmpi check: rank 0: conflicting RMA accesses to the same target bytes in one epoch \(MPI-3.1 11.7.1\): "
W="window #[0-9]+\)"
check_helper check_rma_conflict 3 \
    "${X}rank 0's MPI_Put\(target=1, disp=0, 16 bytes, $W and rank 0's MPI_Get\(target=1, disp=2, 16 bytes, $W overlap in 8 bytes; fix: " 1 \
    "${X}rank 0's MPI_Accumulate\(target=1, disp=4, 16 bytes, $W and rank 0's MPI_Accumulate\(target=1, disp=4, 16 bytes, $W overlap in 16 bytes; fix: " 1 \
    "${X}rank 0's MPI_Put\(target=1, disp=0, 16 bytes, $W and rank 0's MPI_Put\(target=1, disp=3, 8 bytes, $W overlap in 4 bytes; fix: " 1

# two origins' conflicting accesses to the same bytes of rank 2: in a
# fence epoch the second put reports, whichever rank makes it
Y="^shmpi check: rank [01]: conflicting RMA accesses to the same target bytes in one epoch \(MPI-3.1 11.7.1\): "
NP=3 check_helper check_rma_xorigin 2 \
    "${Y}rank [01]'s MPI_Put\(target=2, disp=[02], 16 bytes, $W and rank [01]'s MPI_Put\(target=2, disp=[02], 16 bytes, $W overlap in 8 bytes; fix: " 1 \
    "^shmpi check: rank 1: conflicting RMA accesses to the same target bytes in one epoch \(MPI-3.1 11.7.1\): rank 0's MPI_Put\(target=2, disp=8, 16 bytes, $W and rank 1's MPI_Accumulate\(target=2, disp=8, 16 bytes, $W overlap in 16 bytes; fix: " 1

# a sync counter freed with signals no round consumed
check_helper check_sync_counter 1 \
    "^shmpi check: rank 0: sync counter freed with signals pending \(MPI-3.1 11.5 and shmpi_sync\(7\)\): counter [0-9]+: 2 signals for 1 counts armed by MPI_Start of its MPI_Win_sync_object_init requests, at MPI_Win_free_sync_objects; fix: " 1

pass
