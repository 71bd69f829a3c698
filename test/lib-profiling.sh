#!/usr/bin/env bash
# lib-profiling: a profiling tool's MPI_Send and MPI_Allreduce, in the program or in a shared library of their own, replace shmpi's and reach them through PMPI_, against libmpi.so and (in the program) libmpi.a.
# shmpi-test: timeout=120
# SPDX-License-Identifier: BSD-3-Clause
. "$(dirname "$0")/helpers/lib.sh"

cd "$TEST_TMPDIR" || fail "cannot cd to $TEST_TMPDIR"
# The tool counts the calls it sees and the bytes MPI_Send sends.  The
# library calls itself through the PMPI_ names, so MPI_Allreduce is seen
# once per call, and its own messages are never seen as MPI_Send.
cat >tool.c <<'C'
#include <mpi.h>

int tool_sends, tool_bytes, tool_allreduces;

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag,
             MPI_Comm comm)
{
    int size;
    PMPI_Type_size(type, &size);
    tool_sends++;
    tool_bytes += count * size;
    return PMPI_Send(buf, count, type, dest, tag, comm);
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count,
                  MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    tool_allreduces++;
    return PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
}
C
cat >app.c <<'C'
#include <mpi.h>
#include <stdio.h>

extern int tool_sends, tool_bytes, tool_allreduces;

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, v[3] = {1, 2, 3}, sum = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Send(v, 3, MPI_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Send(v, 1, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD);
    } else if (rank == 1) {
        double d;
        MPI_Recv(v, 3, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&d, 1, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Allreduce(&v[2], &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Bcast(&sum, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d: sum %d sends %d bytes %d allreduces %d\n", rank, sum,
           tool_sends, tool_bytes, tool_allreduces);
    MPI_Finalize();
    return 0;
}
C

run() { # how
    start_job "$MPIRUN" -np 2 ./app
    finish_job
    expect_status 0
    expect_lines "$OUT" '^rank 0: sum 6 sends 2 bytes 20 allreduces 2$'
    expect_lines "$OUT" '^rank 1: sum 6 sends 0 bytes 0 allreduces 2$'
    echo "$1: ok"
}

build() { # what mpicc-args...
    local what=$1
    shift
    rm -f app
    # shellcheck disable=SC2086
    "$SHMPI_ROOT/mpicc" ${SANFLAGS:-} -Wall "$@" >build.log 2>&1 ||
        { cat build.log; fail "cannot build $what"; }
}

build "the tool in the program, libmpi.a" -o app app.c tool.c
run "the tool in the program, libmpi.a"
build "the tool in the program, libmpi.so" -shared-mpi -o app app.c tool.c
run "the tool in the program, libmpi.so"
# The usual form of a tool: a shared library of its own, linked before
# MPI (or preloaded), that finds PMPI_ in libmpi.so at run time.
build "libtool.so" -shared-mpi -shared -fPIC -o libtool.so tool.c
build "the tool in libtool.so, libmpi.so" -shared-mpi -o app app.c \
    "$TEST_TMPDIR/libtool.so" -Xlinker -rpath -Xlinker "$TEST_TMPDIR"
run "the tool in libtool.so, libmpi.so"
expect_shm_clean
pass
