/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cancel.c - MPI_Cancel and MPI_Test_cancelled (MPI-3.1 3.8.4).
 *
 * Cancelling is decided at once, here, so that the MPI_Wait that follows
 * is local as the standard requires:
 *   - a receive is cancelled if it is still posted (not matched);
 *   - a send still in this rank's backlog (never entered the ring), or a
 *     send to oneself still unexpected, is taken back;
 *   - a send waiting at its receiver (synchronous, or large) is cancelled
 *     if it wins the race for its claim word against the receive that
 *     would take it (claim.h); the receiver drops it when it meets it.
 * Everything else is past cancelling: an eager standard send completes
 * as soon as its data is in the ring, a large one once a receive (or the
 * receiver's pull, pull.c) has taken it.  Requests of the other kinds
 * are cancelled (or refused) by their kind's cancel (request.h).
 */
#include <stdlib.h>

#include "core/error.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "pt2pt/claim.h"
#include "pt2pt/pt2pt.h"
#include "pt2pt/sigcheck.h"
#include "pt2pt/start.h"

SHMPI_WEAK_ALIAS(Cancel)
SHMPI_WEAK_ALIAS(Test_cancelled)

static void complete_cancelled(struct shmpi_request *r)
{
    r->status.shmpi_cancelled = 1;
    shmpi_p2p_request_complete(r);
}

static int take_local(struct shmpi_lane *l, struct shmpi_request *r)
{
    struct shmpi_unexp_queue *q = &l->unexpected[shmpi_proc.rank];
    for (struct shmpi_unexpected *u = q->head; u; u = u->next)
        if (u->local_send == r) {
            shmpi_p2p_unexpected_remove(l, u);
            free(u->sig); /* NULL outside check mode */
            shmpi_p2p_unexpected_free(u);
            return 1;
        }
    return 0;
}

static void cancel_send(struct shmpi_lane *l, struct shmpi_request *r)
{
    if (r->peer == shmpi_proc.rank) {
        if (take_local(l, r))
            complete_cancelled(r);
    } else if (shmpi_p2p_queue_remove(&l->peers[r->peer].envelopes, r)) {
        l->peers[r->peer].waiting -= shmpi_p2p_envelope_bytes(r);
        if (r->sig)
            shmpi_p2p_sig_drop(r);
        complete_cancelled(r); /* its claim was never published */
    } else if (shmpi_p2p_claim_cancel(r->claim)) {
        r->claim = 0;          /* the receiver frees the word */
        complete_cancelled(r);
    }
}

int PMPI_Cancel(MPI_Request *req)
{
    static const char *fn = "MPI_Cancel";
    SHMPI_REQUIRE_INIT(fn);
    if (!req || !shmpi_request_ok(*req) || !(*req)->active)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, fn,
                           "not an active request");
    struct shmpi_request *r = *req;
    struct shmpi_lane *l = r->lane;
    const struct shmpi_req_ops *o = shmpi_request_ops(r);
    if (o && o->cancel)
        return o->cancel(r, fn);
    shmpi_p2p_lane_enter(l);
    shmpi_p2p_cancel_locked(l, r);
    shmpi_p2p_lane_leave(l);
    return MPI_SUCCESS;
}

void shmpi_p2p_cancel_locked(struct shmpi_lane *l, struct shmpi_request *r)
{
    if (shmpi_request_is_complete(r))
        ; /* too late: it completes normally */
    else if (r->kind == SHMPI_REQ_RECV &&
             shmpi_p2p_queue_remove(&l->posted, r))
        complete_cancelled(r);
    else if (r->kind == SHMPI_REQ_SEND)
        cancel_send(l, r);
}

int PMPI_Test_cancelled(const MPI_Status *status, int *flag)
{
    SHMPI_REQUIRE_INIT("MPI_Test_cancelled");
    if (!status || !flag)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Test_cancelled",
                           "status or flag is NULL");
    *flag = status->shmpi_cancelled != 0;
    return MPI_SUCCESS;
}
