/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * start.c - from call arguments to a started request.
 */
#include <string.h>

#include "core/error.h"
#include "core/proc.h"
#include "datatypes/datatype.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/start.h"

void shmpi_p2p_request_fill(struct shmpi_request *r, const void *buf, int count,
                            MPI_Datatype datatype, int peer, int tag,
                            MPI_Comm comm)
{
    /* a request may outlive the program's handle of comm (6.4.3) */
    if (!r->on_stack && r->comm != comm) {
        if (r->comm)
            shmpi_core_comm_release(r->comm);
        shmpi_core_comm_retain(comm);
    }
    /* and of the datatype: MPI_Type_free may come before the wait */
    if (!r->on_stack && r->datatype != datatype) {
        shmpi_dt_retain(datatype);
        if (r->datatype)
            shmpi_dt_release(r->datatype);
    }
    r->comm = comm;
    r->context = comm->context;
    r->buf = (void *)buf;
    r->count = count;
    r->datatype = datatype;
    r->nbytes = (uint64_t)count * (uint64_t)datatype->size;
    r->peer = peer == MPI_ANY_SOURCE || peer == MPI_PROC_NULL
                  ? peer : shmpi_comm_peer_to_world(comm, peer);
    r->tag = tag;
    r->complete = 0;
    r->error = MPI_SUCCESS;
    shmpi_p2p_status_empty(&r->status);
}

int shmpi_p2p_start_send(const char *fn, struct shmpi_request *r, int mode)
{
    r->mode = mode;
    int rc = shmpi_p2p_send_post_or_queue(r);
    if (rc == 0)
        return MPI_SUCCESS;
    return shmpi_raise(r->comm, MPI_ERR_NO_MEM, fn,
                       "cannot reserve outbox memory in /dev/shm: %s",
                       strerror(rc));
}

void shmpi_p2p_start_recv(struct shmpi_request *r)
{
    if (r->peer == MPI_PROC_NULL)
        shmpi_p2p_complete_proc_null(r);
    else
        shmpi_p2p_recv_match_or_post(r);
}

void shmpi_p2p_complete_proc_null(struct shmpi_request *r)
{
    r->status.MPI_SOURCE = MPI_PROC_NULL;
    r->status.MPI_TAG = MPI_ANY_TAG;
    r->status.shmpi_nbytes = 0;
    shmpi_p2p_request_complete(r);
}
