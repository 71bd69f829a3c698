/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * internal.c - the library's own messages on a communicator: plain
 * point-to-point requests of the pt2pt engine, sent on the communicator's
 * internal context (comm->context + 1) so that they can never match a
 * user's receive, whatever its source and tag (MPI_ANY_SOURCE and
 * MPI_ANY_TAG included), nor a user's message match them.
 *
 * The collective parts of communicator creation (agreeing on a context,
 * gathering (color, key)) and the barrier of communicators other than
 * MPI_COMM_WORLD are written on these.  Waiting turns the progress engine,
 * so a process blocked here still serves its other traffic, and sleeps on
 * its doorbell when there is nothing to do (oversubscription is fine).
 * Requests live on the caller's stack: nothing is allocated.
 *
 * One exchange uses the program's context instead: the leaders of
 * MPI_Intercomm_create talk on peer_comm under the program's tag, as
 * 6.6.2 says they do (the program keeps that tag free on peer_comm).
 */
#include "core/error.h"
#include "core/proc.h"
#include "pt2pt/internal.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/start.h"

void shmpi_p2p_internal_request(struct shmpi_request *r,
                                enum shmpi_req_kind kind, MPI_Comm comm,
                                const void *buf, MPI_Count count,
                                MPI_Datatype type, int peer, int tag)
{
    *r = (struct shmpi_request){.magic = SHMPI_MAGIC_REQUEST,
                                .kind = (uint8_t)kind, .on_stack = 1};
    shmpi_p2p_request_fill(r, buf, count, type, peer, tag, comm);
    r->context = comm->context + 1;
}

static void fill(struct shmpi_request *r, enum shmpi_req_kind kind,
                 MPI_Comm comm, const void *buf, int nbytes, int peer,
                 int tag)
{
    shmpi_p2p_internal_request(r, kind, comm, buf, nbytes, MPI_BYTE, peer, tag);
}

static int finish(MPI_Comm comm, struct shmpi_request *r, const char *fn)
{
    int err = shmpi_p2p_request_wait(r, MPI_STATUS_IGNORE);
    if (err == MPI_SUCCESS)
        return MPI_SUCCESS;
    return shmpi_raise(comm, MPI_ERR_INTERN, fn,
                       "internal message on context %u failed (%s)",
                       (unsigned)r->context, shmpi_core_error_class_name(err));
}

int shmpi_p2p_internal_send(MPI_Comm comm, const void *buf, int nbytes,
                            int dest, int tag, const char *fn)
{
    struct shmpi_request s;
    fill(&s, SHMPI_REQ_SEND, comm, buf, nbytes, dest, tag);
    int rc = shmpi_p2p_start_send(fn, &s, SHMPI_MODE_STANDARD);
    return rc != MPI_SUCCESS ? rc : finish(comm, &s, fn);
}

int shmpi_p2p_internal_recv(MPI_Comm comm, void *buf, int nbytes, int source,
                            int tag, const char *fn)
{
    struct shmpi_request r;
    fill(&r, SHMPI_REQ_RECV, comm, buf, nbytes, source, tag);
    shmpi_p2p_start_recv(&r);
    return finish(comm, &r, fn);
}

/* Both at once on `context` (comm's internal one, or the program's). */
static int sendrecv_on(MPI_Comm comm, uint32_t context, const void *sbuf,
                       int sbytes, int dest, int stag, void *rbuf,
                       int rbytes, int source, int rtag, const char *fn)
{
    struct shmpi_request s, r;
    fill(&r, SHMPI_REQ_RECV, comm, rbuf, rbytes, source, rtag);
    fill(&s, SHMPI_REQ_SEND, comm, sbuf, sbytes, dest, stag);
    r.context = s.context = context;
    shmpi_p2p_start_recv(&r);
    int rc = shmpi_p2p_start_send(fn, &s, SHMPI_MODE_STANDARD);
    if (rc != MPI_SUCCESS) {
        /* (a handler that returns) take the receive back off the posted
           queue before its request, on this stack, goes away; internal
           receive is still posted unless it completed */
        shmpi_p2p_recv_withdraw(&r);
        return rc;
    }
    rc = finish(comm, &s, fn);
    int rc2 = finish(comm, &r, fn);
    return rc != MPI_SUCCESS ? rc : rc2;
}

int shmpi_p2p_internal_sendrecv(MPI_Comm comm, const void *sbuf, int sbytes,
                                int dest, int stag, void *rbuf, int rbytes,
                                int source, int rtag, const char *fn)
{
    return sendrecv_on(comm, comm->context + 1, sbuf, sbytes, dest, stag,
                       rbuf, rbytes, source, rtag, fn);
}

int shmpi_p2p_program_sendrecv(MPI_Comm comm, const void *sbuf, int sbytes,
                               int dest, void *rbuf, int rbytes, int source,
                               int tag, const char *fn)
{
    return sendrecv_on(comm, comm->context, sbuf, sbytes, dest, tag, rbuf,
                       rbytes, source, tag, fn);
}

/*
 * Binomial tree rooted at `root`: in virtual ranks (rank - root mod size)
 * a process receives from the one that differs in its lowest set bit,
 * then sends to vrank + mask for each smaller power of two.
 */
int shmpi_p2p_internal_bcast(MPI_Comm comm, void *buf, int nbytes, int root,
                             int tag, const char *fn)
{
    int size = comm->size;
    int vrank = (comm->rank - root + size) % size;
    int mask = 1;
    while (mask < size) {
        if (vrank & mask) {
            int src = (vrank - mask + root) % size;
            int rc = shmpi_p2p_internal_recv(comm, buf, nbytes, src, tag, fn);
            if (rc != MPI_SUCCESS)
                return rc;
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
        if (vrank + mask < size) {
            int dst = (vrank + mask + root) % size;
            int rc = shmpi_p2p_internal_send(comm, buf, nbytes, dst, tag, fn);
            if (rc != MPI_SUCCESS)
                return rc;
        }
    }
    return MPI_SUCCESS;
}
