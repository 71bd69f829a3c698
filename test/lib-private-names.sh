#!/usr/bin/env bash
# lib-private-names: a program that defines names of the library's own (shmpi_p2p_progress, shmpi_proc) links against libmpi.a and libmpi.so and runs, each side using its own.
# shmpi-test: timeout=120
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

cd "$TEST_TMPDIR" || fail "cannot cd to $TEST_TMPDIR"
# Both names are global in the library's objects (runtime/pt2pt/progress.h,
# runtime/core/proc.h); here they have other types altogether.  Had the
# library called this shmpi_p2p_progress or written into this shmpi_proc, the
# counts below would be off or the pattern broken (or the job crashed).
cat >names.c <<'C'
#include <mpi.h>
#include <stdio.h>

static int my_calls, lib_calls;
unsigned char shmpi_proc[4096];

int shmpi_p2p_progress(void)
{
    lib_calls++;    /* undone below for the program's own calls */
    return 42;
}

int main(int argc, char **argv)
{
    for (int i = 0; i < (int)sizeof shmpi_proc; i++)
        shmpi_proc[i] = (unsigned char)(i * 7 + 1);
    MPI_Init(&argc, &argv);
    int rank, size, sum = 0, got = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Request rq[2];
    int peer = (rank + 1) % size, from = (rank + size - 1) % size;
    MPI_Irecv(&got, 1, MPI_INT, from, 0, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(&rank, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, &rq[1]);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    int r = shmpi_p2p_progress();
    my_calls++;
    int bad = 0;
    for (int i = 0; i < (int)sizeof shmpi_proc; i++)
        bad += shmpi_proc[i] != (unsigned char)(i * 7 + 1);
    printf("rank %d: got %d sum %d own %d library %d broken %d\n", rank, got,
           sum, r, lib_calls - my_calls, bad);
    MPI_Finalize();
    return 0;
}
C

run() { # how
    start_job "$MPIRUN" -np 2 ./names
    finish_job
    expect_status 0
    expect_lines "$OUT" '^rank 0: got 1 sum 1 own 42 library 0 broken 0$'
    expect_lines "$OUT" '^rank 1: got 0 sum 1 own 42 library 0 broken 0$'
    echo "$1: ok"
}

# shellcheck disable=SC2086
"$SHMPI_ROOT/mpicc" ${SANFLAGS:-} -Wall -o names names.c >build.log 2>&1 ||
    { cat build.log; fail "names.c does not link against libmpi.a"; }
run "libmpi.a"
rm -f names
# shellcheck disable=SC2086
"$SHMPI_ROOT/mpicc" -shared-mpi ${SANFLAGS:-} -Wall -o names names.c >build.log 2>&1 ||
    { cat build.log; fail "names.c does not link against libmpi.so"; }
run "libmpi.so"
expect_shm_clean
pass
