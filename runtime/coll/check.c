/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * check.c - argument checks of the collective calls, with the classes
 * MPI-3.1 names: MPI_ERR_COMM, MPI_ERR_ROOT, MPI_ERR_COUNT, MPI_ERR_TYPE
 * (null, freed or uncommitted), MPI_ERR_OP, MPI_ERR_BUFFER, MPI_ERR_ARG
 * (missing arrays).  Arguments that the standard calls significant only
 * at the root are checked only there, by the callers.
 */
#include <stdint.h>

#include "coll/args.h"
#include "coll/check.h"
#include "coll/coll.h"
#include "core/error.h"
#include "core/info.h"
#include "datatypes/datatype.h"
#include "datatypes/ops.h"
#include "coll/sched.h"

int shmpi_coll_check_comm(const char *fn, MPI_Comm comm)
{
    if (!shmpi_comm_ok(comm))
        return shmpi_raise(comm, MPI_ERR_COMM, fn, "invalid communicator");
    return MPI_SUCCESS;
}

int shmpi_coll_check_root(const char *fn, MPI_Comm comm, int root)
{
    if (comm->is_inter) { /* 5.2.2: the root's group says MPI_ROOT, the
                             rest of it MPI_PROC_NULL, the other group
                             names the root by its remote rank */
        if (root == MPI_ROOT || root == MPI_PROC_NULL ||
            (root >= 0 && root < comm->remote_size))
            return MPI_SUCCESS;
        return shmpi_raise(comm, MPI_ERR_ROOT, fn,
                           "root %d is neither MPI_ROOT, MPI_PROC_NULL nor a "
                           "rank of the remote group (size %d)", root,
                           comm->remote_size);
    }
    if (root < 0 || root >= comm->size)
        return shmpi_raise(comm, MPI_ERR_ROOT, fn,
                           "root %d is not a rank of the communicator "
                           "(size %d)", root, comm->size);
    return MPI_SUCCESS;
}

int shmpi_coll_check_type(const char *fn, MPI_Comm comm, MPI_Datatype t,
                          const char *what)
{
    if (!shmpi_datatype_ok(t))
        return shmpi_raise(comm, MPI_ERR_TYPE, fn, "%s is not a datatype%s",
                           what, t == MPI_DATATYPE_NULL
                                     ? " (MPI_DATATYPE_NULL)" : "");
    if (!t->committed)
        return shmpi_raise(comm, MPI_ERR_TYPE, fn,
                           "%s is not committed (MPI_Type_commit)", what);
    return MPI_SUCCESS;
}

/* Data that would start in the first page of memory cannot be real:
   NULL and MPI_IN_PLACE, unless the type's displacements are absolute
   addresses (buffer MPI_BOTTOM). */
static int unreal(const void *buf, MPI_Datatype t)
{
    return (uintptr_t)buf + (uintptr_t)t->true_lb < 4096;
}

static int bad_buffer(const char *fn, MPI_Comm comm, const void *buf,
                      const char *what)
{
    if (buf == MPI_IN_PLACE)
        return shmpi_raise(comm, MPI_ERR_BUFFER, fn,
                           "%s is MPI_IN_PLACE, which this call does not "
                           "allow here", what);
    return shmpi_raise(comm, MPI_ERR_BUFFER, fn, "%s is %s but has data",
                       what, buf ? "not a valid address" : "NULL");
}

int shmpi_coll_check_data(const char *fn, MPI_Comm comm, const void *buf,
                          MPI_Count count, MPI_Datatype t, const char *what)
{
    if (count < 0)
        return shmpi_raise(comm, MPI_ERR_COUNT, fn,
                           "the count of %s is negative (%lld)", what,
                           (long long)count);
    int rc = shmpi_coll_check_type(fn, comm, t, what);
    if (rc != MPI_SUCCESS)
        return rc;
    if (buf == MPI_IN_PLACE || (count > 0 && t->size > 0 && unreal(buf, t)))
        return bad_buffer(fn, comm, buf, what);
    return MPI_SUCCESS;
}

int shmpi_coll_check_blocks(const char *fn, MPI_Comm comm, const void *base,
                            struct shmpi_coll_vec counts,
                            struct shmpi_coll_vec displs, int need_displs,
                            MPI_Aint unit, const MPI_Datatype *types,
                            MPI_Datatype t, const char *what)
{
    if (!counts.p || (need_displs && !displs.p))
        return shmpi_raise(comm, MPI_ERR_ARG, fn, "the %s of %s are NULL",
                           counts.p ? "displacements" : "counts", what);
    if (base == MPI_IN_PLACE)
        return bad_buffer(fn, comm, base, what);
    /* one block per peer: on an intercommunicator, per remote process */
    int blocks = shmpi_comm_peer_count(comm);
    for (int i = 0; i < blocks; i++) {
        MPI_Datatype ti = types ? types[i] : t;
        int rc = shmpi_coll_check_type(fn, comm, ti, what);
        if (rc != MPI_SUCCESS)
            return rc;
        MPI_Count n = shmpi_coll_count_at(counts, i);
        if (n < 0)
            return shmpi_raise(comm, MPI_ERR_COUNT, fn,
                               "count %d of %s is negative (%lld)", i, what,
                               (long long)n);
        const char *at = (const char *)base +
                         (displs.p ? shmpi_coll_disp_at(displs, i) * unit : 0);
        if (n > 0 && ti->size > 0 && unreal(at, ti))
            return bad_buffer(fn, comm, base, what);
    }
    return MPI_SUCCESS;
}

int shmpi_coll_check_op(const char *fn, MPI_Comm comm, MPI_Op op,
                        MPI_Datatype t, MPI_Count count)
{
    if (!shmpi_op_ok(op))
        return shmpi_raise(comm, MPI_ERR_OP, fn,
                           "op is not an op (MPI_OP_NULL, or freed)");
    if (op->code == SHMPI_OP_REPLACE || op->code == SHMPI_OP_NO_OP)
        return shmpi_raise(comm, MPI_ERR_OP, fn,
                           "%s is for one-sided accumulates only",
                           op->name);
    /* a pair the communicator just reduced with needs no lookup */
    struct shmpi_coll *c = comm->coll;
    if (c && c->kernel.op == op && c->kernel.type == t && c->kernel.fn)
        return MPI_SUCCESS;
    int rc = shmpi_op_check(op, t, SHMPI_OP_FOR_REDUCTION, fn);
    if (rc != MPI_SUCCESS)
        rc = shmpi_op_refusal(rc, op, count);
    if (rc == MPI_ERR_TYPE)
        return shmpi_raise(comm, rc, fn,
                           "datatype is " SHMPI_HANDLE_SYNC_RULE);
    if (rc != MPI_SUCCESS)
        return shmpi_raise(comm, MPI_ERR_OP, fn,
                           "%s is not defined for datatype %s (5.9.2; "
                           "shmpi_datatypes(7))", op->name,
                           t->name[0] ? t->name : "(a derived type)");
    return MPI_SUCCESS;
}

int shmpi_coll_check_alias(const char *fn, MPI_Comm comm, const void *sbuf,
                           const void *rbuf, int has_data)
{
    if (has_data && sbuf == rbuf)
        return shmpi_raise(comm, MPI_ERR_BUFFER, fn,
                           "sendbuf and recvbuf are the same buffer (use "
                           "MPI_IN_PLACE)");
    return MPI_SUCCESS;
}

int shmpi_coll_refuse_call(MPI_Comm comm, int rc, int counted)
{
    if (!shmpi_comm_ok(comm))
        return rc;
    if (comm->is_inter) /* its collectives run schedules */
        return shmpi_nbc_refuse_call(comm, rc);
    if (comm->coll)
        shmpi_coll_refuse(comm->coll, counted);
    return rc;
}

int shmpi_coll_report_failed(MPI_Comm comm, const char *fn)
{
    return shmpi_raise(comm, MPI_ERR_OTHER, fn,
                       "another rank's arguments to this collective were "
                       "wrong, so what it should have given this rank is "
                       "missing");
}

int shmpi_coll_check_request(const char *fn, MPI_Comm comm,
                             const MPI_Request *request)
{
    if (!request)
        return shmpi_raise(comm, MPI_ERR_ARG, fn, "request pointer is NULL");
    return MPI_SUCCESS;
}

int shmpi_coll_check_init(const char *fn, MPI_Comm comm, MPI_Info info,
                          const MPI_Request *request)
{
    if (info != MPI_INFO_NULL && !shmpi_info_ok(info))
        return shmpi_raise(comm, MPI_ERR_INFO, fn,
                           "info is not a valid info object");
    return shmpi_coll_check_request(fn, comm, request);
}

int shmpi_coll_args_rooted(const char *fn, MPI_Comm comm, int root,
                           const void *buf, MPI_Count count, MPI_Datatype type,
                           const char *what, struct shmpi_coll_args *a,
                           struct shmpi_coll_blocks *mine)
{
    int rc = shmpi_coll_check_comm(fn, comm);
    if (rc == MPI_SUCCESS)
        rc = shmpi_coll_check_root(fn, comm, root);
    if (rc != MPI_SUCCESS)
        return rc;
    shmpi_coll_args_root(a, comm, root);
    if (a->idle || (comm->is_inter && a->at_root))
        return MPI_SUCCESS;
    if (buf == MPI_IN_PLACE && a->at_root) {
        a->in_place = 1;
        return MPI_SUCCESS;
    }
    rc = shmpi_coll_check_data(fn, comm, buf, count, type, what);
    if (rc == MPI_SUCCESS)
        *mine = shmpi_coll_one_block(buf, count, type);
    return rc;
}
