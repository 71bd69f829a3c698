/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * leftovers.c - what a program left of its point-to-point communication
 * at MPI_Finalize, in check mode (leftovers.h).
 *
 * Read after MPI_Finalize's barrier: every rank sent what it sent before
 * its own arrival there (its backlog flushed first, init/init.c), so
 * what is not yet on this rank's queues is in its rings and mailboxes,
 * which progress drains first.  The library's own messages (odd
 * contexts, internal.h) are not the program's and are left out.
 */
#include "pt2pt/leftovers.h"

#include <stdio.h>

#include "core/blocked.h"
#include "core/check.h"
#include "core/proc.h"
#include "pt2pt/bufcheck.h"
#include "pt2pt/progress.h"
#include "pt2pt/pt2pt.h"

/* drain rounds at most: the program sends nothing more, so a round
   that finds nothing ends it long before */
enum { DRAIN_ROUNDS = 1000 };

static int users(uint32_t context)
{
    return !(context & 1);
}

static void unreceived(void)
{
    struct shmpi_pt2pt *pt = shmpi_proc.pt2pt;
    const struct shmpi_unexpected *first = NULL;
    long n = 0;
    for (uint32_t k = 0; k <= pt->lane_mask; k++)
        for (int s = 0; pt->lanes[k].unexpected && s < shmpi_proc.size; s++)
            for (const struct shmpi_unexpected *u =
                     pt->lanes[k].unexpected[s].head; u; u = u->next)
                if (users(u->context) && n++ == 0)
                    first = u;
    if (!n)
        return;
    char where[64];
    shmpi_core_blocked_context(where, sizeof where, first->context);
    shmpi_core_check_report(
        "messages arrived and were never received", "8.7",
        "post a receive for every message sent to this rank (or do not "
        "send it) before MPI_Finalize",
        "%ld at MPI_Finalize, the first from world rank %d, tag %d, "
        "%llu bytes, on %s", n, first->source, first->tag,
        (unsigned long long)first->nbytes, where);
}

static void unmatched(void)
{
    struct shmpi_pt2pt *pt = shmpi_proc.pt2pt;
    const struct shmpi_request *first = NULL;
    long n = 0;
    for (uint32_t k = 0; k <= pt->lane_mask; k++)
        for (const struct shmpi_request *r = pt->lanes[k].posted.head; r;
             r = r->next)
            if (users(r->context) && n++ == 0)
                first = r;
    if (!n)
        return;
    char from[MPI_MAX_OBJECT_NAME + 48];
    shmpi_core_blocked_peer(from, sizeof from, first->comm, first->peer);
    shmpi_core_check_report(
        "receives never completed", "8.7",
        "complete (MPI_Wait) or cancel and complete every receive before "
        "MPI_Finalize",
        "%ld posted and unmatched at MPI_Finalize, the first of "
        "count=%lld from %s, tag %d", n, (long long)first->count, from,
        first->tag);
}

static void unfinished_sends(void)
{
    char first[256] = "";
    long n = shmpi_p2p_bufcheck_pending(first, sizeof first);
    if (n)
        shmpi_core_check_report(
            "nonblocking sends never completed or freed", "8.7",
            "complete every request (MPI_Wait, MPI_Test) or free it "
            "before MPI_Finalize",
            "%ld at MPI_Finalize, the first %s", n, first);
}

void shmpi_p2p_check_leftovers(void)
{
    for (int i = 0; i < DRAIN_ROUNDS && shmpi_p2p_progress() > 0; i++)
        ;
    unreceived();
    unmatched();
    unfinished_sends();
}
