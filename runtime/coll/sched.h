/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sched.h - schedules: how a collective runs without blocking its caller
 * (MPI-3.1 5.12).  A nonblocking collective call builds a schedule of
 * rounds - messages to send and receive, then local copies and folds -
 * and returns a request; the progress engine (pt2pt/progress.c) advances
 * every active schedule whenever the rank is inside MPI, through the
 * progress hook this room registers at MPI_Init (shmpi_nbc_init,
 * core/hooks.h: pt2pt, below, does not call coll by name), and the
 * request completes when the last round has.
 *
 * Messages of a schedule travel on the communicator's internal context
 * (pt2pt/internal.h) with a tag of their own, SHMPI_TAG_NBC + the
 * schedule's number on that communicator: all members start their
 * collectives in the same order, so they agree on the number without
 * talking, and any number of schedules can be in flight at once without
 * their messages matching each other's receives.  They never touch the collective area, so they
 * mix freely with the blocking collectives.
 *
 * A ROUND.  The messages of a round are started together (receives
 * first) when the round begins; its local operations (copy, reduce,
 * call) run in the order they were added once all of its messages have
 * completed.  So "receive x from j, then fold x into acc" is one round,
 * and data a round sends must be ready when the round begins: computed
 * by an earlier round.  A round with no messages runs its local
 * operations as soon as it begins.
 *
 * Intercommunicators: a peer is a rank of comm's remote group, as in
 * point-to-point; shmpi_nbc_on() redirects the following operations of
 * the schedule to another communicator (an intercommunicator's local
 * one, say) until the next call.
 *
 * Persistent collectives (MPI-4.0 6.13) keep their schedule and run it
 * again at every MPI_Start (shmpi_nbc_persist, shmpi_nbc_plan).
 *
 * Errors: a message that fails (MPI_ERR_TRUNCATE) does not stop the
 * schedule - every round still runs, so that the peers are not left
 * waiting - and the first error is the request's.
 */
#ifndef SHMPI_NBC_SCHED_H
#define SHMPI_NBC_SCHED_H

#include "core/objects.h"

struct shmpi_nbc;

/* A new, empty schedule on comm (retained until the schedule ends);
   NULL when out of memory. */
struct shmpi_nbc *shmpi_nbc_new(MPI_Comm comm);

/* Build.  Each returns MPI_SUCCESS or MPI_ERR_NO_MEM (not raised; the
   caller discards the schedule and raises).  Counts are elements of
   type; counts beyond INT_MAX are cut into several messages, the same
   way on both sides.  Types (and op) are retained until the schedule
   ends, so the program may free its handles at once (5.12). */
int shmpi_nbc_send(struct shmpi_nbc *s, const void *buf, MPI_Count count,
                   MPI_Datatype type, int peer);
int shmpi_nbc_recv(struct shmpi_nbc *s, void *buf, MPI_Count count,
                   MPI_Datatype type, int peer);
/* Copy min(sent, room) bytes of the packed signature from (src, scount,
   stype) to (dst, rcount, rtype); more sent than fits is an
   MPI_ERR_TRUNCATE of the request. */
int shmpi_nbc_copy(struct shmpi_nbc *s, const void *src, MPI_Count scount,
                   MPI_Datatype stype, void *dst, MPI_Count rcount,
                   MPI_Datatype rtype);
/* inout = in op inout, count elements of type (both typed). */
int shmpi_nbc_reduce(struct shmpi_nbc *s, const void *in, void *inout,
                     MPI_Count count, MPI_Datatype type, MPI_Op op);
/* fn(s, arg) as a local operation (communicator creation's last step);
   it returns MPI_SUCCESS or an error class for the request. */
typedef int shmpi_nbc_fn(struct shmpi_nbc *s, void *arg);
int shmpi_nbc_call(struct shmpi_nbc *s, shmpi_nbc_fn *fn, void *arg);
/* End the current round; the next operations go into a new one. */
int shmpi_nbc_round(struct shmpi_nbc *s);
/* Following operations talk on comm (retained) instead. */
int shmpi_nbc_on(struct shmpi_nbc *s, MPI_Comm comm);
/* Scratch memory freed when the schedule ends: count elements of type
   laid out as type says (the returned pointer is element 0, wherever
   the type's lb puts it), or plain bytes with type NULL.  NULL when out
   of memory. */
void *shmpi_nbc_scratch(struct shmpi_nbc *s, MPI_Datatype type,
                        MPI_Count count);

/* Start it: *req becomes the request the program waits for (on the
   schedule's first communicator), and the first rounds run at once.
   MPI_SUCCESS, or MPI_ERR_NO_MEM (not raised) with the schedule
   discarded. */
int shmpi_nbc_start(struct shmpi_nbc *s, MPI_Request *req);
/* Keep it for MPI_Start (MPI-4.0 6.13, sched.c tells what is planned
   once and what each start does): *req becomes an inactive persistent
   request that owns s; each MPI_Start runs s from its first round, a
   completing Wait/Test leaves the request inactive, MPI_Request_free
   discards s.  MPI_SUCCESS, or MPI_ERR_NO_MEM (not raised) with the
   schedule discarded. */
int shmpi_nbc_persist(struct shmpi_nbc *s, MPI_Request *req);
/* Throw away a schedule that was never started. */
void shmpi_nbc_discard(struct shmpi_nbc *s);
/* A blocking call that built a schedule: start it, wait for it; returns
   the request's error (not raised), MPI_ERR_NO_MEM included. */
int shmpi_nbc_run(struct shmpi_nbc *s);

/* The common end of a collective call: a schedule on comm built by
   build(s, comm, args), then started into *req, or run to its end when
   req is NULL (a blocking call).  MPI_SUCCESS or an error raised on comm
   under fn (a build that fails discards the schedule). */
typedef int shmpi_nbc_build_fn(struct shmpi_nbc *s, MPI_Comm comm,
                               const void *args);
int shmpi_nbc_launch(MPI_Comm comm, shmpi_nbc_build_fn *build,
                     const void *args, MPI_Request *req, const char *fn);

/* The same for a persistent collective's init call: the schedule kept
   in the inactive persistent request *req (shmpi_nbc_persist). */
int shmpi_nbc_plan(MPI_Comm comm, shmpi_nbc_build_fn *build,
                   const void *args, MPI_Request *req, const char *fn);

/* A collective call on comm whose argument checks raised rc before it
   made its schedule: the other processes made theirs, with the next
   number, so this one takes that number too - or its next schedule's
   messages would match theirs of this one: wrong data, never an error.
   (Who waits for this process's messages of the refused collective
   still waits: nothing comes.)  Returns rc. */
int shmpi_nbc_refuse_call(MPI_Comm comm, int rc);

/* MPI_Init (shmpi_coll_init): lends pt2pt the operations of
   SHMPI_REQ_COLL (pt2pt/request.h). */
void shmpi_nbc_register_kind(void);

/* MPI_Init: hand the progress engine the schedules' part, as a progress
   hook (core/hooks.h), armed while a schedule is active. */
void shmpi_nbc_init(void);

#endif
