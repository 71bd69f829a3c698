/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * blocked.h - a rank's side of the "blocked in" record (shm_arena/
 * blocked.h): what core/wait.c writes around a sleep on the doorbell,
 * and the helpers the rooms' describers format their line with.
 *
 * A wait names what it waits for with a struct shmpi_core_waitfor
 * (core/wait.h): its done() and a describer, both static, so that a
 * call site pays one pointer argument and nothing is formatted unless
 * the launcher asks (a deadlock or a hang report), which it does by
 * ringing the doorbell of a rank whose threads all sleep.
 */
#ifndef SHMPI_CORE_BLOCKED_H
#define SHMPI_CORE_BLOCKED_H

#include <stddef.h>
#include <stdint.h>

#include "mpi.h"

struct shmpi_core_waitfor;

/* Around one futex sleep of the calling thread, waiting for w(arg):
   counted asleep in between, and a pending request of the launcher is
   answered (w's line written) on the way in and on the way out. */
void shmpi_core_blocked_enter(const struct shmpi_core_waitfor *w, void *arg);
void shmpi_core_blocked_leave(const struct shmpi_core_waitfor *w, void *arg);
/* This rank is in MPI_Finalize (init/init.c, before its barrier): the
   launcher says so of it in the wait-for graph. */
void shmpi_core_blocked_finalizing(void);
/* The rank's current wait began to sleep now (since_ns, if no other
   thread's wait holds it): returns what to pass to _wait_over. */
long shmpi_core_blocked_since(void);
/* A wait that slept is over (since: what _since returned). */
void shmpi_core_blocked_wait_over(long since);

/* For describers: " from rank W (rank C in NAME)" style pieces.  The
   communicator's name (MPI_Comm_set_name) or "comm #CONTEXT". */
void shmpi_core_blocked_comm(char *buf, size_t len, MPI_Comm comm);
/* A communicator known by its context only: MPI_COMM_WORLD,
   MPI_COMM_SELF, or "comm #CONTEXT". */
void shmpi_core_blocked_context(char *buf, size_t len, uint32_t context);
/* "rank W (rank C in NAME)" for world rank w of comm's peers; "any
   rank in NAME" for w < 0. */
void shmpi_core_blocked_peer(char *buf, size_t len, MPI_Comm comm, int w);

/* Describers of the requests rooms above pt2pt make (a nonblocking
   collective's schedule: coll/sched.c; a sync counter's: rma/): each
   room registers its kind's at MPI_Init, before any request of it
   exists; pt2pt/describe.c calls it for a request of that kind that
   the call `wait` (MPI_Wait, MPI_Waitall, ...) sleeps on.  Same
   contract as core/wait.h's describe. */
typedef int shmpi_core_req_describer(const void *req, const char *wait,
                                     char *buf, size_t len);
#define SHMPI_CORE_REQ_KINDS 16
void shmpi_core_blocked_kind(int kind, shmpi_core_req_describer *d);
/* NULL when kind registered none. */
shmpi_core_req_describer *shmpi_core_blocked_kind_of(int kind);

#endif
