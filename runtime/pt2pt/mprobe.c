/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mprobe.c - matched probe and receive: MPI_Mprobe, MPI_Improbe,
 * MPI_Mrecv, MPI_Imrecv (MPI-3.1 3.8.2, 3.8.3).
 *
 * A matched probe takes the message off the unexpected queue into an
 * MPI_Message, so no other receive (another thread's, a wildcard one) can
 * take it; MPI_Mrecv then receives exactly that message.
 */
#include <stdlib.h>

#include "core/error.h"
#include "core/fint.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "core/wait.h"
#include "pt2pt/check.h"
#include "pt2pt/progress.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/request.h"
#include "pt2pt/start.h"

SHMPI_WEAK_ALIAS(Mprobe)
SHMPI_WEAK_ALIAS(Improbe)
SHMPI_WEAK_ALIAS(Mrecv)
SHMPI_WEAK_ALIAS(Mrecv_c)
SHMPI_WEAK_ALIAS(Imrecv)
SHMPI_WEAK_ALIAS(Imrecv_c)

#define SHMPI_MAGIC_MESSAGE 0x4d534720u /* "MSG " */

struct shmpi_message shmpi_message_no_proc = {SHMPI_MAGIC_MESSAGE, NULL,
                                              NULL, 0};

struct mprobe {
    uint32_t context;
    int source;                /* world rank, or -1 for any */
    int tag;
    struct shmpi_unexpected *found;
};

static int take(void *arg)
{
    struct mprobe *p = arg;
    struct shmpi_lane *l = shmpi_p2p_lane_of(p->context);
    for (int pass = 0; pass < 2; pass++) {
        /* taken off the queue under the lane: the entry is this
           thread's from then on */
        shmpi_p2p_lane_enter(l);
        p->found = shmpi_p2p_find_unexpected(l, p->context, p->source,
                                             p->tag, 1);
        shmpi_p2p_lane_leave(l);
        if (p->found || pass)
            break;
        shmpi_p2p_progress();
    }
    return p->found != NULL;
}

static int prepare(const char *fn, int source, int tag, MPI_Comm comm,
                   MPI_Message *message, struct mprobe *p)
{
    int rc = shmpi_check_recv(fn, NULL, 0, MPI_BYTE, source, tag, comm);
    if (rc == MPI_SUCCESS && !message)
        rc = shmpi_raise(comm, MPI_ERR_ARG, fn, "message is NULL");
    if (rc != MPI_SUCCESS)
        return rc;
    p->context = comm->context;
    p->source = source < 0 ? source : shmpi_comm_peer_to_world(comm, source);
    p->tag = tag;
    return rc;
}

static int make_message(const char *fn, MPI_Comm comm, struct mprobe *p,
                        MPI_Message *message, MPI_Status *status)
{
    struct shmpi_message *m = malloc(sizeof *m);
    if (!m) {
        struct shmpi_lane *l = shmpi_p2p_lane_of(p->context);
        shmpi_p2p_lane_enter(l);
        shmpi_p2p_unexpected_push(l, p->found);
        shmpi_p2p_lane_leave(l);
        return shmpi_raise(comm, MPI_ERR_NO_MEM, fn, "no memory");
    }
    *m = (struct shmpi_message){SHMPI_MAGIC_MESSAGE, comm, p->found, 0};
    shmpi_core_comm_retain(comm); /* until MPI_Mrecv consumes the message */
    *message = m;
    if (status != MPI_STATUS_IGNORE) {
        status->MPI_SOURCE =
            shmpi_comm_peer_from_world(comm, p->found->source);
        status->MPI_TAG = p->found->tag;
        status->shmpi_cancelled = 0;
        status->shmpi_nbytes = (MPI_Count)p->found->nbytes;
    }
    return MPI_SUCCESS;
}

static void no_proc(MPI_Message *message, MPI_Status *status)
{
    *message = MPI_MESSAGE_NO_PROC;
    shmpi_p2p_status_empty(status);
    if (status != MPI_STATUS_IGNORE)
        status->MPI_SOURCE = MPI_PROC_NULL;
}

static int describe_mprobe(void *arg, char *buf, size_t len)
{
    const struct mprobe *p = arg;
    return shmpi_p2p_envelope_describe("MPI_Mprobe", p->context, p->source,
                                       p->tag, buf, len);
}

static const struct shmpi_core_waitfor take_waitfor = {take, describe_mprobe};

int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message,
                MPI_Status *status)
{
    static const char *fn = "MPI_Mprobe";
    SHMPI_REQUIRE_INIT(fn);
    struct mprobe p;
    int rc = prepare(fn, source, tag, comm, message, &p);
    if (rc != MPI_SUCCESS)
        return rc;
    if (source == MPI_PROC_NULL) {
        no_proc(message, status);
        return MPI_SUCCESS;
    }
    shmpi_core_wait_for(&take_waitfor, &p,
                        1u << shmpi_p2p_comm_lane(comm)->index);
    return make_message(fn, comm, &p, message, status);
}

int PMPI_Improbe(int source, int tag, MPI_Comm comm, int *flag,
                 MPI_Message *message, MPI_Status *status)
{
    static const char *fn = "MPI_Improbe";
    SHMPI_REQUIRE_INIT(fn);
    struct mprobe p;
    int rc = prepare(fn, source, tag, comm, message, &p);
    if (rc == MPI_SUCCESS && !flag)
        rc = shmpi_raise(comm, MPI_ERR_ARG, fn, "flag is NULL");
    if (rc != MPI_SUCCESS)
        return rc;
    *flag = 1;
    if (source == MPI_PROC_NULL) {
        no_proc(message, status);
        return MPI_SUCCESS;
    }
    if (!(*flag = take(&p))) {
        shmpi_core_poll_idle();
        return MPI_SUCCESS;
    }
    return make_message(fn, comm, &p, message, status);
}

/* Check the message handle and start receiving it into r. */
static int start_mrecv(const char *fn, void *buf, MPI_Count count, MPI_Datatype dt,
                       MPI_Message *message, struct shmpi_request *r)
{
    if (!message || !*message || (*message)->magic != SHMPI_MAGIC_MESSAGE)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, fn,
                           "not a message from MPI_Mprobe/MPI_Improbe");
    struct shmpi_message *m = *message;
    MPI_Comm comm = m->comm ? m->comm : MPI_COMM_SELF;
    int rc = shmpi_dt_check_buffer(fn, comm, buf, count, dt);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!m->unexpected) { /* MPI_MESSAGE_NO_PROC */
        shmpi_p2p_request_fill(r, buf, count, dt, MPI_PROC_NULL, MPI_ANY_TAG,
                               comm);
        shmpi_p2p_complete_proc_null(r);
    } else {
        shmpi_p2p_request_fill(r, buf, count, dt, MPI_ANY_SOURCE, MPI_ANY_TAG,
                               comm);
        shmpi_p2p_lane_enter(r->lane);
        shmpi_p2p_recv_unexpected(r, m->unexpected);
        shmpi_p2p_lane_leave(r->lane);
        shmpi_core_comm_release(m->comm);
        shmpi_fint_drop(SHMPI_FINT_MESSAGE, &m->fint);
        free(m);
    }
    *message = MPI_MESSAGE_NULL;
    return MPI_SUCCESS;
}

static int mrecv_call(const char *fn, void *buf, MPI_Count count,
                      MPI_Datatype dt, MPI_Message *message,
                      MPI_Status *status)
{
    SHMPI_REQUIRE_INIT(fn);
    struct shmpi_request r = SHMPI_STACK_REQUEST(SHMPI_REQ_RECV);
    int rc = start_mrecv(fn, buf, count, dt, message, &r);
    if (rc != MPI_SUCCESS)
        return rc;
    int err = shmpi_p2p_request_wait(&r, status);
    return err ? shmpi_raise(r.comm, err, fn,
                             "message of %llu bytes does not fit the receive "
                             "buffer (%llu bytes)",
                             (unsigned long long)r.msg_bytes,
                             (unsigned long long)r.nbytes)
               : MPI_SUCCESS;
}

int PMPI_Mrecv(void *buf, int count, MPI_Datatype dt, MPI_Message *message,
               MPI_Status *status)
{
    return mrecv_call("MPI_Mrecv", buf, count, dt, message, status);
}

int PMPI_Mrecv_c(void *buf, MPI_Count count, MPI_Datatype dt,
                 MPI_Message *message, MPI_Status *status)
{
    return mrecv_call("MPI_Mrecv_c", buf, count, dt, message, status);
}

static int imrecv_call(const char *fn, void *buf, MPI_Count count,
                       MPI_Datatype dt, MPI_Message *message, MPI_Request *req)
{
    SHMPI_REQUIRE_INIT(fn);
    if (!req)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn,
                           "request pointer is NULL");
    struct shmpi_request *r = shmpi_p2p_request_new(SHMPI_REQ_RECV);
    if (!r)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, fn, "no memory");
    int rc = start_mrecv(fn, buf, count, dt, message, r);
    if (rc != MPI_SUCCESS) {
        shmpi_p2p_request_release(r);
        return rc;
    }
    *req = r;
    return MPI_SUCCESS;
}

int PMPI_Imrecv(void *buf, int count, MPI_Datatype dt, MPI_Message *message,
                MPI_Request *req)
{
    return imrecv_call("MPI_Imrecv", buf, count, dt, message, req);
}

int PMPI_Imrecv_c(void *buf, MPI_Count count, MPI_Datatype dt,
                  MPI_Message *message, MPI_Request *req)
{
    return imrecv_call("MPI_Imrecv_c", buf, count, dt, message, req);
}
