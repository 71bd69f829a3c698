/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * check_coll_kinds - collectives called differently on the kinds of
 * communicator and the comparisons beyond call, root and amount
 * (MPI-3.1 5.1, 5.2.2, 7.6), for mpirun --check to report
 * (test/check-coll-kinds.sh).  Each erroneous form has a correct twin,
 * FORM-ok, that must pass without a word.
 *
 *   sig      np 2: MPI_Bcast of 4 MPI_INT on rank 0, 4 MPI_FLOAT on 1
 *            (16 bytes each); ok: 4 MPI_INT against 4 MPI_INT, and
 *            against 16 MPI_BYTE, which matches any type
 *   big      any np (60): MPI_Allreduce with MPI_MAX on the last rank,
 *            MPI_SUM on the others; ok: the same op everywhere
 *   noarea   np 2, SHMPI_COLL_AREAS=2 (MPI_COMM_WORLD's and the check's:
 *            a dup gets none): MPI_Bcast with root 0 on rank 0, root 1
 *            on rank 1 on the dup "nodup"; ok: root 0 everywhere
 *   inter    np 4: an intercommunicator "ab" of {0, 1} and {2, 3};
 *            MPI_Allreduce with MPI_SUM in the first group, MPI_MAX in
 *            the second; ok: MPI_Bcast from rank 0 of the first group
 *            (MPI_ROOT, MPI_PROC_NULL, 0), MPI_Allreduce, MPI_Barrier
 *   neighbor np 2: a periodic ring "ring"; MPI_Neighbor_allgather on
 *            rank 0, MPI_Neighbor_alltoall on rank 1 (both move one
 *            MPI_INT each way); ok: the same call on both, then
 *            MPI_Ineighbor_alltoall
 */
#include <stdio.h>
#include <string.h>

#include "mpi.h"

static void sig(int rank, int ok)
{
    int v[4] = {1, 2, 3, 4};
    if (ok) {
        MPI_Bcast(v, 4, MPI_INT, 0, MPI_COMM_WORLD);
        MPI_Bcast(v, rank ? 16 : 4, rank ? MPI_BYTE : MPI_INT, 0,
                  MPI_COMM_WORLD);
    } else {
        MPI_Bcast(v, 4, rank ? MPI_FLOAT : MPI_INT, 0, MPI_COMM_WORLD);
    }
}

static void big(int rank, int size, int ok)
{
    int v = rank, w;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Allreduce(&v, &w, 1, MPI_INT,
                  !ok && rank == size - 1 ? MPI_MAX : MPI_SUM,
                  MPI_COMM_WORLD);
    MPI_Bcast(&v, 1, MPI_INT, size - 1, MPI_COMM_WORLD);
}

static void noarea(int rank, int ok)
{
    MPI_Comm dup;
    int v[4] = {0};
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_set_name(dup, "nodup");
    MPI_Barrier(dup);
    /* the wrong root makes both members roots: each sends, nobody
       waits for the other */
    MPI_Bcast(v, 4, MPI_INT, ok ? 0 : rank, dup);
    MPI_Comm_free(&dup);
}

static void inter(int rank, int ok)
{
    int low = rank < 2, v[2] = {rank, rank}, w[2];
    MPI_Comm half, ab;
    MPI_Comm_split(MPI_COMM_WORLD, low, rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, low ? 2 : 0, 7, &ab);
    MPI_Comm_set_name(ab, "ab");
    if (ok) {
        int root = low ? (rank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
        MPI_Bcast(v, 2, MPI_INT, root, ab);
        MPI_Barrier(ab);
    }
    MPI_Allreduce(v, w, 2, MPI_INT, ok || low ? MPI_SUM : MPI_MAX, ab);
    MPI_Comm_free(&ab);
    MPI_Comm_free(&half);
}

static void neighbor(int rank, int ok)
{
    int dims = 2, periods = 1, in[2] = {rank, rank}, out[2];
    MPI_Comm ring;
    MPI_Cart_create(MPI_COMM_WORLD, 1, &dims, &periods, 0, &ring);
    MPI_Comm_set_name(ring, "ring");
    if (ok || rank == 0)
        MPI_Neighbor_allgather(in, 1, MPI_INT, out, 1, MPI_INT, ring);
    else
        MPI_Neighbor_alltoall(in, 1, MPI_INT, out, 1, MPI_INT, ring);
    if (ok) {
        MPI_Request r;
        MPI_Ineighbor_alltoall(in, 1, MPI_INT, out, 1, MPI_INT, ring, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    MPI_Comm_free(&ring);
}

int main(int argc, char **argv)
{
    char form[32] = "sig";
    int rank, size, ok;
    if (argc > 1)
        snprintf(form, sizeof form, "%s", argv[1]);
    char *dash = strstr(form, "-ok");
    ok = dash != NULL;
    if (dash)
        *dash = '\0';
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (strcmp(form, "sig") == 0)
        sig(rank, ok);
    else if (strcmp(form, "big") == 0)
        big(rank, size, ok);
    else if (strcmp(form, "noarea") == 0)
        noarea(rank, ok);
    else if (strcmp(form, "inter") == 0)
        inter(rank, ok);
    else if (strcmp(form, "neighbor") == 0)
        neighbor(rank, ok);
    MPI_Finalize();
    return 0;
}
