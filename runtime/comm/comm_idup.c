/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * comm_idup.c - MPI_Comm_idup (MPI-3.1 6.4.2): MPI_Comm_dup without
 * blocking, on a schedule (coll/sched.h).
 *
 * Its semantics are "as if MPI_COMM_DUP was executed at the time
 * MPI_COMM_IDUP is called" (attributes changed later are not copied), so
 * the call itself makes the new communicator object (shmpi_comm_like),
 * copies the attributes onto it through their callbacks, and - at the
 * process that takes them, in call order - takes its ids
 * (shmpi_comm_dup_ids).  The schedule carries the ids: on an
 * intracommunicator a broadcast from rank 0; on an intercommunicator the
 * context from the leader of the first group to the other leader, then
 * each leader's broadcast in its group, on the local intracommunicator -
 * MPI_Comm_dup's exchange (intercomm.c) in rounds.  Its last step opens
 * the communicator and only then stores the handle: the program's
 * *newcomm is set when the request completes, never before (6.4.2).
 *
 * The messages go under the schedule's own tag, so any number of idups,
 * other nonblocking collectives and blocking calls can be in flight on
 * one communicator.  A process whose copy callback fails raises the
 * error at once but still runs its part of the schedule, on a request
 * the program never sees, so that the others complete (MPI_Comm_dup
 * does the same after its exchange).
 *
 * MPI_Comm_idup_with_info (MPI-4.0) is the same with info's hints
 * instead of comm's, as MPI_Comm_dup_with_info (comm_info.c): shmpi
 * keeps no communicator hint, so that is the check of info.  A bad info
 * is raised like a failed copy: the schedule still runs, so that the
 * others complete.
 */
#include "coll/check.h"
#include "coll/coll.h"
#include "comm/comm.h"
#include "core/attr.h"
#include "core/error.h"
#include "core/info.h"
#include "core/pmpi.h"
#include "coll/reduction.h"
#include "coll/sched.h"

SHMPI_WEAK_ALIAS(Comm_idup)
SHMPI_WEAK_ALIAS(Comm_idup_with_info)

struct idup {
    MPI_Comm c;                /* the new communicator, not yet opened;
                                  NULL: the attribute copy failed */
    MPI_Comm *newcomm;         /* the program's handle, set at the end */
    const char *fn;            /* MPI_Comm_idup(_with_info) */
    struct shmpi_comm_ids ids;
};

/* A new communicator that never reaches the program goes, with what
   the copy callbacks put on it. */
static void forget(MPI_Comm c)
{
    shmpi_attr_delete_all(&c->attrs, c);
    shmpi_core_comm_release(c);
}

/* The schedule's last step. */
static int open_new(struct shmpi_nbc *s, void *arg)
{
    struct idup *d = arg;
    if (!d->c) {
        shmpi_coll_area_drop(d->ids.area);
        return MPI_SUCCESS;
    }
    int rc = shmpi_comm_open(d->c, &d->ids);
    if (rc != MPI_SUCCESS) { /* the request's error; no handle */
        forget(d->c);
        *d->newcomm = MPI_COMM_NULL;
        return rc;
    }
    *d->newcomm = d->c;
    shmpi_comm_handed(d->c, d->fn);
    return MPI_SUCCESS;
}

static int build(struct shmpi_nbc *s, MPI_Comm comm, struct idup *d)
{
    int rc;
    if (comm->is_inter) {
        if (comm->rank == 0 &&
            ((rc = shmpi_comm_inter_first(comm)
                       ? shmpi_nbc_send(s, &d->ids.context,
                                        sizeof d->ids.context, MPI_BYTE, 0)
                       : shmpi_nbc_recv(s, &d->ids.context,
                                        sizeof d->ids.context, MPI_BYTE,
                                        0)) != MPI_SUCCESS ||
             (rc = shmpi_nbc_round(s)) != MPI_SUCCESS))
            return rc;
        if ((rc = shmpi_nbc_on(s, comm->local)) != MPI_SUCCESS)
            return rc;
        comm = comm->local;
    }
    rc = shmpi_nbc_bcast_from(s, comm, &d->ids, sizeof d->ids, MPI_BYTE, 0);
    return rc != MPI_SUCCESS ? rc : shmpi_nbc_call(s, open_new, d);
}

/* A new communicator object with comm's attributes, for d; d->c NULL
   when a copy callback failed (raised, its code in *copied). */
static int prepare(MPI_Comm comm, struct idup *d, int *copied,
                   const char *fn)
{
    *copied = MPI_SUCCESS;
    if (shmpi_comm_like(comm, &d->c) != MPI_SUCCESS)
        return MPI_ERR_NO_MEM;
    if ((*copied = shmpi_comm_copy_attrs(comm, d->c, fn)) != MPI_SUCCESS) {
        shmpi_core_comm_release(d->c);
        d->c = NULL;
    }
    return MPI_SUCCESS;
}

/* The duplicate's object, or none (raised, *copied) when info is bad. */
static int prepare_with(MPI_Comm comm, MPI_Info info, struct idup *d,
                        int *copied, const char *fn)
{
    if (prepare(comm, d, copied, fn) != MPI_SUCCESS)
        return MPI_ERR_NO_MEM;
    if (*copied == MPI_SUCCESS && info != MPI_INFO_NULL &&
        !shmpi_info_ok(info)) {
        forget(d->c);
        d->c = NULL;
        *copied = shmpi_raise(comm, MPI_ERR_INFO, fn,
                              "info is not a valid info object");
    }
    return MPI_SUCCESS;
}

static int idup(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm,
                MPI_Request *request, const char *fn)
{
    SHMPI_REQUIRE_INIT(fn);
    if (!shmpi_comm_ok(comm))
        return shmpi_raise(comm, MPI_ERR_COMM, fn, "invalid communicator");
    if (!newcomm)
        return shmpi_raise(comm, MPI_ERR_ARG, fn, "newcomm is NULL");
    int rc = shmpi_coll_check_request(fn, comm, request);
    if (rc != MPI_SUCCESS)
        return rc;
    struct shmpi_nbc *s = shmpi_nbc_new(comm);
    struct idup *d = s ? shmpi_nbc_scratch(s, NULL, sizeof *d) : NULL;
    int copied = MPI_SUCCESS;
    if (!d || prepare_with(comm, info, d, &copied, fn) != MPI_SUCCESS) {
        if (s)
            shmpi_nbc_discard(s);
        return shmpi_raise(comm, MPI_ERR_NO_MEM, fn,
                           "no memory for a new communicator");
    }
    d->newcomm = newcomm;
    d->fn = fn;
    shmpi_comm_dup_ids(comm, &d->ids);
    uint32_t area = d->ids.area; /* d goes with the schedule */
    MPI_Comm c = d->c;
    MPI_Request r;
    if ((rc = build(s, comm, d)) != MPI_SUCCESS)
        shmpi_nbc_discard(s);
    else
        rc = shmpi_nbc_start(s, &r); /* discards it on failure */
    if (rc != MPI_SUCCESS) {
        shmpi_coll_area_drop(area);
        if (c)
            forget(c);
        return shmpi_raise(comm, rc, fn,
                           "no memory for the schedule of the duplication");
    }
    if (copied != MPI_SUCCESS) { /* raised; the schedule runs on alone */
        PMPI_Request_free(&r);
        return copied;
    }
    *request = r;
    return MPI_SUCCESS;
}

int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
    return idup(comm, MPI_INFO_NULL, newcomm, request, "MPI_Comm_idup");
}

int PMPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info,
                             MPI_Comm *newcomm, MPI_Request *request)
{
    return idup(comm, info, newcomm, request, "MPI_Comm_idup_with_info");
}
