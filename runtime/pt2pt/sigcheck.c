/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sigcheck.c - a receive's type signature against its message's
 * (sigcheck.h); check mode only.
 *
 * A send's record is made once, where its arguments are at hand, and
 * is the send's from its start until its envelope is written
 * (shmpi_p2p_sig_drop), so that no request goes back to its free list
 * with one; a message kept before its receive holds a copy of its own
 * (u->sig), freed when a receive takes the message or a cancel drops
 * it.
 */
#include "pt2pt/sigcheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/blocked.h"
#include "core/check.h"
#include "datatypes/sig.h"
#include "pt2pt/pt2pt.h"

void shmpi_p2p_sig_sign(struct shmpi_request *r,
                        const struct shmpi_request *args, const char *fn)
{
    uint64_t hash;
    if (r->sig || !args->nbytes || r->context != r->comm->context ||
        shmpi_dt_sig(args->datatype, args->count, args->nbytes, &hash) !=
            SHMPI_DT_SIG_TYPED)
        return;
    struct shmpi_p2p_sig *s = malloc(sizeof *s);
    if (!s)
        return; /* unchecked: the check must not fail the program */
    s->hash = hash;
    s->count = (int64_t)args->count;
    snprintf(s->call, sizeof s->call, "%s", fn);
    shmpi_dt_describe(args->datatype, s->type, sizeof s->type);
    r->sig = s;
}

void shmpi_p2p_sig_drop(struct shmpi_request *r)
{
    free(r->sig);
    r->sig = NULL;
}

struct shmpi_p2p_sig *shmpi_p2p_sig_keep(const void *sig)
{
    struct shmpi_p2p_sig *s = malloc(sizeof *s);
    if (s)
        memcpy(s, sig, sizeof *s);
    return s;
}

/* The receiving call, as the request tells it: a blocking receive's is
   on its caller's stack (MPI_Recv, and the receives of MPI_Sendrecv and
   MPI_Mrecv), a persistent one's is MPI_Recv_init's, the rest are
   MPI_Irecv's (and MPI_Imrecv's, MPI_Isendrecv's). */
static const char *recv_call(const struct shmpi_request *r)
{
    if (r->on_stack)
        return "MPI_Recv";
    return r->persistent ? "MPI_Recv_init" : "MPI_Irecv";
}

void shmpi_p2p_sig_check(const struct shmpi_request *r, int source,
                         int tag, uint64_t nbytes,
                         const struct shmpi_p2p_sig *sig)
{
    uint64_t hash;
    /* a longer message is MPI_ERR_TRUNCATE, which the receive raises */
    if (nbytes > r->nbytes)
        return;
    enum shmpi_dt_sig_kind k =
        shmpi_dt_sig(r->datatype, r->count, nbytes, &hash);
    if (k == SHMPI_DT_SIG_UNTYPED || (k == SHMPI_DT_SIG_TYPED &&
                                      hash == sig->hash))
        return;
    char type[MPI_MAX_OBJECT_NAME + 48], comm[MPI_MAX_OBJECT_NAME + 16];
    shmpi_dt_describe(r->datatype, type, sizeof type);
    shmpi_core_blocked_comm(comm, sizeof comm, r->comm);
    shmpi_core_check_report(
        "receive type signature does not match the message's", "3.3.1",
        "receive with the basic types the message was sent with, in the "
        "same order (or send and receive MPI_BYTE, or MPI_PACKED with "
        "MPI_Pack/MPI_Unpack)",
        "%s(count=%lld, %s, tag=%d) on rank %d sent %llu bytes that "
        "%s(count=%lld, %s) received, on %s",
        sig->call, (long long)sig->count, sig->type, tag,
        shmpi_comm_peer_from_world(r->comm, source),
        (unsigned long long)nbytes, recv_call(r), (long long)r->count, type,
        comm);
}
