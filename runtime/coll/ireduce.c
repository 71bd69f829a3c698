/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ireduce.c - MPI_Ireduce, and the reduction tree every nonblocking
 * reduction starts with.
 *
 * THE TREE.  Members are numbered by their distance from the tree's root
 * t0, v = (rank - t0) mod n.  At step k = 1, 2, 4, ... a member whose bit
 * k is clear takes in, from v + k, the partial result of v + k ..
 * v + 2k - 1; at the first k whose bit is set it sends its own, that of
 * v .. v + k - 1, to v - k.  A member always holds a run of consecutive
 * v that starts at itself and takes in the run that follows, so "held op
 * received" keeps the order of v, which is rank order when t0 is 0: a
 * non-commutative op roots the tree at 0 and sends its result on to the
 * root (one more message), a commutative one roots it at the root.
 * ceil(log2 n) rounds; no member moves more than log2 n vectors.
 *
 * shmpi_nbc_reduce computes inout = in op inout, so a received partial
 * result is the inout: it lands in one of two scratch buffers that take
 * turns (the last one in the root's dst), and what was held is the in.
 *
 * Each call has its MPI-4.0 large-count form beside it (the _c name:
 * counts MPI_Count, displacements MPI_Aint), on the same checks and
 * path; count arrays are read as given (coll/vec.h).
 */
#include "coll/check.h"
#include "coll/reduce_args.h"
#include "core/error.h"
#include "core/pmpi.h"
#include "datatypes/ops.h"
#include "coll/reduction.h"

SHMPI_WEAK_ALIAS(Ireduce)
SHMPI_WEAK_ALIAS(Ireduce_c)

/* How many members send to member v: one per clear low bit k of v
   with v + k < n. */
static int children_of(int v, int n)
{
    int m = 0;
    for (int k = 1; k < n && !(v & k); k <<= 1)
        m += v + k < n;
    return m;
}

/* The buffer child i (1..m) is received into: the two scratch buffers
   in turn, ending in `last` when there is one.  Not `last` for the only
   child when last is the send buffer too (MPI_IN_PLACE): the receive
   would overwrite the data it is folded with. */
static void *landing(struct shmpi_nbc *s, void *turn[2], int i, int m,
                     void *last, const void *sbuf, MPI_Datatype t,
                     MPI_Count count)
{
    if (i == m && last && !(m == 1 && last == sbuf))
        return last;
    int j = (m - i) & 1;
    if (!turn[j])
        turn[j] = shmpi_nbc_scratch(s, t, count);
    return turn[j];
}

/* Fold the m children of member v (tree root t0) into the held data;
   returns where the fold ends, or NULL when out of memory. */
static const void *fold_children(struct shmpi_nbc *s, MPI_Comm comm, int v,
                                 int t0, const void *sbuf, void *last,
                                 MPI_Count count, MPI_Datatype t, MPI_Op op,
                                 void *turn[2])
{
    int n = comm->size, m = children_of(v, n);
    const void *held = sbuf;
    for (int i = 1, k = 1; i <= m; i++, k <<= 1) {
        void *into = landing(s, turn, i, m, last, sbuf, t, count);
        if (!into ||
            shmpi_nbc_recv(s, into, count, t, (v + k + t0) % n) ||
            shmpi_nbc_reduce(s, held, into, count, t, op) ||
            shmpi_nbc_round(s))
            return NULL;
        held = into;
    }
    return held;
}

int shmpi_nbc_reduce_to(struct shmpi_nbc *s, MPI_Comm comm, const void *sbuf,
                        void *dst, MPI_Count count, MPI_Datatype t,
                        MPI_Op op, int root, const void **at)
{
    int n = comm->size, t0 = op->commute ? root : 0;
    int v = (comm->rank - t0 + n) % n, mine = comm->rank == root;
    void *turn[2] = {NULL, NULL};
    void *last = mine && t0 == root ? dst : NULL;
    const void *held = fold_children(s, comm, v, t0, sbuf, last, count, t,
                                     op, turn);
    if (!held)
        return MPI_ERR_NO_MEM;
    int to = v ? (v - (v & -v) + t0) % n : root; /* parent, or the root */
    if (to != comm->rank &&
        (shmpi_nbc_send(s, held, count, t, to) || shmpi_nbc_round(s)))
        return MPI_ERR_NO_MEM;
    if (!mine)
        return MPI_SUCCESS;
    if (t0 != root) { /* the result comes from the tree's root */
        void *into = dst ? dst : turn[0] ? turn[0]
                                         : shmpi_nbc_scratch(s, t, count);
        if (!into || shmpi_nbc_recv(s, into, count, t, t0) ||
            shmpi_nbc_round(s))
            return MPI_ERR_NO_MEM;
        held = into;
    } else if (dst && held != dst) { /* one member, or in place */
        if (shmpi_nbc_copy(s, held, count, t, dst, count, t) ||
            shmpi_nbc_round(s))
            return MPI_ERR_NO_MEM;
        held = dst;
    }
    *at = held;
    return MPI_SUCCESS;
}

int shmpi_nbc_build_reduce(struct shmpi_nbc *s, MPI_Comm comm,
                           const struct shmpi_coll_red *x)
{
    const void *at;
    return shmpi_nbc_reduce_to(s, comm, x->sbuf, x->rbuf, x->count, x->type,
                               x->op, x->root, &at);
}

static int ireduce_call(const char *fn, const void *sendbuf, void *recvbuf,
                        MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                        int root, MPI_Comm comm, MPI_Request *request)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_red x;
    int rc = shmpi_coll_red_args_reduce(fn, sendbuf, recvbuf, count, datatype,
                                        op, root, comm, &x);
    if (rc == MPI_SUCCESS)
        rc = shmpi_coll_check_request(fn, comm, request);
    if (rc != MPI_SUCCESS)
        return shmpi_nbc_refuse_call(comm, rc);
    return shmpi_nbc_reduction_start(fn, comm, &x, request);
}

int PMPI_Ireduce(const void *sendbuf, void *recvbuf, int count,
                 MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                 MPI_Request *request)
{
    return ireduce_call("MPI_Ireduce", sendbuf, recvbuf, count, datatype, op,
                        root, comm, request);
}

int PMPI_Ireduce_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                   MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                   MPI_Request *request)
{
    return ireduce_call("MPI_Ireduce_c", sendbuf, recvbuf, count, datatype,
                        op, root, comm, request);
}
