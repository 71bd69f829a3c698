/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * blocked.c - the rank's side of the "blocked in" record (core/blocked.h,
 * shm_arena/blocked.h for the protocol).  Only core/wait.c's sleep calls
 * it, after the spin, the yields and the stall hook found nothing: a
 * futex sleep and wake-up cost microseconds, these few relaxed atomics
 * on the rank's own line nothing next to them.
 */
#include "core/blocked.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/objects.h"
#include "core/proc.h"
#include "core/wait.h"

/* The launcher's request this thread answered last (ask counts from 1). */
static _Thread_local uint32_t answered;

static struct shmpi_arena_blocked *record(void)
{
    return &shmpi_proc.slot->blocked;
}

static int describe(const struct shmpi_core_waitfor *w, void *arg,
                    char *buf, size_t len)
{
    if (w->describe)
        return w->describe(arg, buf, len);
    snprintf(buf, len, "an MPI call (a wait that says no more)");
    return -1;
}

/* If the launcher asked since we last answered: our line, then told. */
static void answer(const struct shmpi_core_waitfor *w, void *arg)
{
    struct shmpi_arena_blocked *b = record();
    uint32_t ask = atomic_load_explicit(&b->ask, memory_order_acquire);
    if (ask == answered)
        return;
    answered = ask;
    uint32_t i = atomic_fetch_add_explicit(&b->ntext, 1, memory_order_relaxed);
    if (i < SHMPI_BLOCKED_THREADS)
        b->waits_for[i] = describe(w, arg, b->text[i], SHMPI_BLOCKED_TEXT);
    atomic_fetch_add_explicit(&b->told, 1, memory_order_release);
}

void shmpi_core_blocked_enter(const struct shmpi_core_waitfor *w, void *arg)
{
    struct shmpi_arena_blocked *b = record();
    atomic_fetch_add_explicit(&b->asleep, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&b->gen, 1, memory_order_relaxed);
    answer(w, arg);
}

void shmpi_core_blocked_leave(const struct shmpi_core_waitfor *w, void *arg)
{
    struct shmpi_arena_blocked *b = record();
    answer(w, arg);
    atomic_fetch_add_explicit(&b->gen, 1, memory_order_relaxed);
    atomic_fetch_sub_explicit(&b->asleep, 1, memory_order_relaxed);
}

long shmpi_core_blocked_since(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    long now = t.tv_sec * 1000000000L + t.tv_nsec;
    uint64_t none = 0;
    /* the first sleeping wait of the rank holds the clock: under
       MULTIPLE another thread's may be older, and then it stays */
    if (atomic_compare_exchange_strong_explicit(
            &record()->since_ns, &none, (uint64_t)now, memory_order_relaxed,
            memory_order_relaxed))
        return now;
    return 0;
}

void shmpi_core_blocked_wait_over(long since)
{
    if (since)
        atomic_store_explicit(&record()->since_ns, 0, memory_order_relaxed);
}

void shmpi_core_blocked_finalizing(void)
{
    atomic_store_explicit(&record()->finalizing, 1, memory_order_relaxed);
}

void shmpi_core_blocked_context(char *buf, size_t len, uint32_t context)
{
    if (context == MPI_COMM_WORLD->context)
        snprintf(buf, len, "MPI_COMM_WORLD");
    else if (context == MPI_COMM_SELF->context)
        snprintf(buf, len, "MPI_COMM_SELF");
    else
        snprintf(buf, len, "comm #%u", (unsigned)context);
}

void shmpi_core_blocked_comm(char *buf, size_t len, MPI_Comm comm)
{
    char name[MPI_MAX_OBJECT_NAME];
    if (shmpi_core_name_get(comm->name, name) > 0)
        snprintf(buf, len, "%s", name);
    else
        shmpi_core_blocked_context(buf, len, comm->context);
}

void shmpi_core_blocked_peer(char *buf, size_t len, MPI_Comm comm, int w)
{
    char name[MPI_MAX_OBJECT_NAME + 16];
    shmpi_core_blocked_comm(name, sizeof name, comm);
    if (w < 0)
        snprintf(buf, len, "any rank of %s", name);
    else
        snprintf(buf, len, "rank %d (rank %d in %s)", w,
                 shmpi_comm_peer_from_world(comm, w), name);
}

/* Written at MPI_Init by the thread that calls it, before any request
   of the kind exists; read only after (shmpi_core_req_describer). */
static shmpi_core_req_describer *kinds[SHMPI_CORE_REQ_KINDS];

void shmpi_core_blocked_kind(int kind, shmpi_core_req_describer *d)
{
    if (kind >= 0 && kind < SHMPI_CORE_REQ_KINDS)
        kinds[kind] = d;
}

shmpi_core_req_describer *shmpi_core_blocked_kind_of(int kind)
{
    return kind >= 0 && kind < SHMPI_CORE_REQ_KINDS ? kinds[kind] : NULL;
}
