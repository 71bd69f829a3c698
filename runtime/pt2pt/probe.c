/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * probe.c - MPI_Probe and MPI_Iprobe (MPI-3.1 3.8.1): look at the first
 * message that a receive with this envelope would match, without
 * receiving it.
 */
#include "core/error.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "core/wait.h"
#include "pt2pt/check.h"
#include "pt2pt/progress.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/request.h"

SHMPI_WEAK_ALIAS(Probe)
SHMPI_WEAK_ALIAS(Iprobe)

struct probe {
    uint32_t context;
    int source;                /* world rank, or -1 for any */
    int tag;
    /* the envelope of the message found, copied under the lane: under
       MULTIPLE another thread may receive the message and free its entry
       as soon as the lane is left */
    int found_source;          /* world rank */
    int found_tag;
    uint64_t found_nbytes;
};

static int look(struct probe *p)
{
    struct shmpi_lane *l = shmpi_p2p_lane_of(p->context);
    shmpi_p2p_lane_enter(l);
    const struct shmpi_unexpected *u =
        shmpi_p2p_find_unexpected(l, p->context, p->source, p->tag, 0);
    if (u) {
        p->found_source = u->source;
        p->found_tag = u->tag;
        p->found_nbytes = u->nbytes;
    }
    shmpi_p2p_lane_leave(l);
    return u != NULL;
}

static int probe_done(void *arg)
{
    if (look(arg))
        return 1;
    shmpi_p2p_progress();
    return look(arg);
}

static void probe_status(MPI_Comm comm, const struct probe *p,
                         MPI_Status *status)
{
    if (status == MPI_STATUS_IGNORE)
        return;
    status->MPI_SOURCE = shmpi_comm_peer_from_world(comm, p->found_source);
    status->MPI_TAG = p->found_tag;
    status->shmpi_cancelled = 0;
    status->shmpi_nbytes = (MPI_Count)p->found_nbytes;
}

/* Check the arguments (raising what is wrong), then set p to the
   envelope they ask for. */
static int prepare_probe(const char *fn, int source, int tag, MPI_Comm comm,
                         struct probe *p)
{
    int rc = shmpi_check_recv(fn, NULL, 0, MPI_BYTE, source, tag, comm);
    if (rc != MPI_SUCCESS)
        return rc;
    p->context = comm->context;
    p->source = source == MPI_ANY_SOURCE ? -1
                : source == MPI_PROC_NULL ? source
                : shmpi_comm_peer_to_world(comm, source);
    p->tag = tag;
    return MPI_SUCCESS;
}

static void proc_null_status(MPI_Status *status)
{
    shmpi_p2p_status_empty(status);
    if (status != MPI_STATUS_IGNORE)
        status->MPI_SOURCE = MPI_PROC_NULL;
}

static int describe_probe(void *arg, char *buf, size_t len)
{
    const struct probe *p = arg;
    return shmpi_p2p_envelope_describe("MPI_Probe", p->context, p->source,
                                       p->tag, buf, len);
}

static const struct shmpi_core_waitfor probe_waitfor = {probe_done,
                                                        describe_probe};

int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    static const char *fn = "MPI_Probe";
    SHMPI_REQUIRE_INIT(fn);
    struct probe p;
    int rc = prepare_probe(fn, source, tag, comm, &p);
    if (rc != MPI_SUCCESS)
        return rc;
    if (source == MPI_PROC_NULL) {
        proc_null_status(status);
        return MPI_SUCCESS;
    }
    shmpi_core_wait_for(&probe_waitfor, &p,
                        1u << shmpi_p2p_comm_lane(comm)->index);
    probe_status(comm, &p, status);
    return MPI_SUCCESS;
}

int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag,
                MPI_Status *status)
{
    static const char *fn = "MPI_Iprobe";
    SHMPI_REQUIRE_INIT(fn);
    struct probe p;
    int rc = prepare_probe(fn, source, tag, comm, &p);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!flag)
        return shmpi_raise(comm, MPI_ERR_ARG, fn, "flag is NULL");
    if (source == MPI_PROC_NULL) {
        *flag = 1;
        proc_null_status(status);
        return MPI_SUCCESS;
    }
    *flag = probe_done(&p);
    if (*flag)
        probe_status(comm, &p, status);
    else
        shmpi_core_poll_idle();
    return MPI_SUCCESS;
}
