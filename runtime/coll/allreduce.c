/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * allreduce.c - MPI_Reduce and MPI_Allreduce, and their argument checks
 * (reduce_args.h), which MPI_Ireduce and MPI_Iallreduce share.  On an
 * intracommunicator reduce.c has the algorithms (fallback.c the message
 * versions); on an intercommunicator they run as a schedule
 * (coll/inter_reduce.c).
 *
 * Each call has its MPI-4.0 large-count form beside it (the _c name:
 * counts MPI_Count, displacements MPI_Aint), on the same checks and
 * path; count arrays are read as given (coll/vec.h).
 */
#include "coll/check.h"
#include "coll/reduce_args.h"
#include "core/error.h"
#include "core/pmpi.h"
#include "datatypes/datatype.h"
#include "coll/reduction.h"

SHMPI_WEAK_ALIAS(Reduce)
SHMPI_WEAK_ALIAS(Reduce_c)
SHMPI_WEAK_ALIAS(Allreduce)
SHMPI_WEAK_ALIAS(Allreduce_c)

/* What a member's sendbuf and recvbuf mean: `send`, `recv` whether it
   contributes and receives, `place_ok` whether MPI_IN_PLACE may stand for
   the send buffer.  A member that does neither (MPI_PROC_NULL on an
   intercommunicator) still passes a valid count, datatype and op. */
struct sides {
    int send, recv, place_ok;
};

static int check_sides(const char *fn, MPI_Comm comm, const void *sendbuf,
                       void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                       MPI_Op op, struct sides m)
{
    int in_place = sendbuf == MPI_IN_PLACE && m.recv && m.place_ok;
    int rc = MPI_SUCCESS;
    if (m.send)
        rc = shmpi_coll_check_data(fn, comm, in_place ? recvbuf : sendbuf,
                                   count, datatype,
                                   in_place ? "recvbuf" : "sendbuf");
    if (rc == MPI_SUCCESS && m.recv && !in_place)
        rc = shmpi_coll_check_data(fn, comm, recvbuf, count, datatype,
                                   "recvbuf");
    if (rc == MPI_SUCCESS && !m.send && !m.recv && count < 0)
        rc = shmpi_raise(comm, MPI_ERR_COUNT, fn, "count is negative (%lld)",
                         (long long)count);
    if (rc == MPI_SUCCESS && !m.send && !m.recv)
        rc = shmpi_coll_check_type(fn, comm, datatype, "datatype");
    if (rc == MPI_SUCCESS)
        rc = shmpi_coll_check_op(fn, comm, op, datatype, count);
    if (rc == MPI_SUCCESS && m.send && m.recv && !in_place)
        rc = shmpi_coll_check_alias(fn, comm, sendbuf, recvbuf,
                                    count > 0 && datatype->size > 0);
    return rc;
}

/* Reduce's sides: the root receives, with MPI_IN_PLACE allowed, and
   contributes; on an intercommunicator (5.2.2) the root (MPI_ROOT) only
   receives, the rest of its group (MPI_PROC_NULL) does nothing and the
   other group only contributes. */
static struct sides reduce_sides(MPI_Comm comm, int root)
{
    if (!comm->is_inter)
        return (struct sides){1, comm->rank == root, 1};
    if (root == MPI_ROOT)
        return (struct sides){0, 1, 0};
    return (struct sides){root != MPI_PROC_NULL, 0, 0};
}

int shmpi_coll_red_args_reduce(const char *fn, const void *sendbuf,
                               void *recvbuf, MPI_Count count,
                               MPI_Datatype datatype, MPI_Op op, int root,
                               MPI_Comm comm, struct shmpi_coll_red *x)
{
    int rc = shmpi_coll_check_comm(fn, comm);
    if (rc == MPI_SUCCESS)
        rc = shmpi_coll_check_root(fn, comm, root);
    if (rc == MPI_SUCCESS)
        rc = check_sides(fn, comm, sendbuf, recvbuf, count, datatype, op,
                         reduce_sides(comm, root));
    if (rc != MPI_SUCCESS)
        return shmpi_coll_order(fn, comm, rc, root, op, 0, NULL);
    *x = (struct shmpi_coll_red){
        .kind = SHMPI_RED_REDUCE, .root = root,
        .sbuf = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf,
        .rbuf = recvbuf, .count = count, .type = datatype, .op = op};
    return shmpi_coll_order(fn, comm, MPI_SUCCESS, root, op, count, datatype);
}

int shmpi_coll_red_args_allreduce(const char *fn, const void *sendbuf,
                                  void *recvbuf, MPI_Count count,
                                  MPI_Datatype datatype, MPI_Op op,
                                  MPI_Comm comm, struct shmpi_coll_red *x)
{
    int rc = shmpi_coll_check_comm(fn, comm);
    if (rc == MPI_SUCCESS)
        rc = check_sides(fn, comm, sendbuf, recvbuf, count, datatype, op,
                         (struct sides){1, 1, !comm->is_inter});
    if (rc != MPI_SUCCESS)
        return shmpi_coll_order(fn, comm, rc, SHMPI_ORDER_NO_ROOT, op, 0,
                                NULL);
    *x = (struct shmpi_coll_red){
        .kind = SHMPI_RED_ALLREDUCE,
        .sbuf = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf,
        .rbuf = recvbuf, .count = count, .type = datatype, .op = op};
    return shmpi_coll_order(fn, comm, MPI_SUCCESS, SHMPI_ORDER_NO_ROOT, op,
                            count, datatype);
}

/* An empty reduction still runs (in the area, or as a schedule without
   messages): a member whose count was wrong takes its part without
   knowing it was empty (coll.h, coll/sched.h). */
int shmpi_coll_red_run(const char *fn, MPI_Comm comm, struct shmpi_coll_red *x)
{
    if (comm->is_inter)
        return shmpi_nbc_reduction_run(fn, comm, x);
    return shmpi_coll_reduction(comm, x, fn);
}

/* Both bodies are inlined into their two entry points: a small
   MPI_Reduce or MPI_Allreduce (and the latter's fast path) then runs
   in one function, with no call and no argument spilling between entry
   point and body (callgrind, 2026-11-29: the same instructions a call
   as with a body of its own per form). */
static inline __attribute__((always_inline)) int
reduce_call(const char *fn, const void *sendbuf, void *recvbuf,
            MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root,
            MPI_Comm comm)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_coll_red x;
    int rc = shmpi_coll_red_args_reduce(fn, sendbuf, recvbuf, count, datatype,
                                        op, root, comm, &x);
    if (rc != MPI_SUCCESS)
        return shmpi_coll_refuse_call(comm, rc, 0);
    return shmpi_coll_red_run(fn, comm, &x);
}

static inline __attribute__((always_inline)) int
allreduce_call(const char *fn, const void *sendbuf, void *recvbuf,
               MPI_Count count, MPI_Datatype datatype, MPI_Op op,
               MPI_Comm comm)
{
    SHMPI_REQUIRE_INIT(fn);
    /* The fast path takes an int count and declines 0 (and anything
       beyond 16 bytes).  In MPI_Allreduce the test folds away; written
       as a branch around the call instead, it made gcc 12 widen the
       count before the call and keep it spilled (one instruction more a
       call, callgrind). */
    if (shmpi_coll_allreduce_small(sendbuf, recvbuf,
                                   count == (int)count ? (int)count : 0,
                                   datatype, op, comm))
        return shmpi_coll_outcome(comm->coll, comm, fn);
    struct shmpi_coll_red x;
    int rc = shmpi_coll_red_args_allreduce(fn, sendbuf, recvbuf, count,
                                           datatype, op, comm, &x);
    if (rc != MPI_SUCCESS)
        return shmpi_coll_refuse_call(comm, rc, 1);
    return shmpi_coll_red_run(fn, comm, &x);
}

int PMPI_Reduce(const void *sendbuf, void *recvbuf, int count,
                MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm)
{
    return reduce_call("MPI_Reduce", sendbuf, recvbuf, count, datatype, op,
                       root, comm);
}

int PMPI_Reduce_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                  MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm)
{
    return reduce_call("MPI_Reduce_c", sendbuf, recvbuf, count, datatype, op,
                       root, comm);
}

int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count,
                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return allreduce_call("MPI_Allreduce", sendbuf, recvbuf, count, datatype,
                          op, comm);
}

int PMPI_Allreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return allreduce_call("MPI_Allreduce_c", sendbuf, recvbuf, count,
                          datatype, op, comm);
}
