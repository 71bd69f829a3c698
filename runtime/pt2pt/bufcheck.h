/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bufcheck.h - the check mode's test of MPI-3.1 3.7.2: a nonblocking
 * send's buffer must not be written between the send's start and the
 * call that completes it (3.7.3).  On shared memory the data is usually
 * copied out at once and such a program works; on a cluster it sends
 * what the buffer holds when the network reads it.
 *
 * Where the hooks are, all behind shmpi_core_checking() (core/check.h)
 * or, where a completion hands out one request, its bufcheck pointer:
 *   started  every nonblocking send of the program: MPI_Isend, _Issend,
 *            _Irsend (nonblocking.c), MPI_Ibsend (bsend.c), the send of
 *            MPI_Isendrecv (isendrecv.c; not _replace, whose buffer the
 *            receive writes), a persistent send at each MPI_Start and
 *            MPI_Startall (persistent.c);
 *   ended    the calls that hand the completion out (completion.c):
 *            MPI_Wait, _Test, their any/all/some forms;
 *   freed    MPI_Request_free of a send (completion.c): the program
 *            gives up the only way to learn when the send completes, so
 *            the buffer is checked there, and never after.
 * A blocking send's buffer is the program's again when the call
 * returns: nothing to check.
 */
#ifndef SHMPI_P2P_BUFCHECK_H
#define SHMPI_P2P_BUFCHECK_H

#include <stddef.h>
#include <stdint.h>

#include "mpi.h"

struct shmpi_request;

/* r (sends: its own arguments; a send-receive: those of its send part
   `send`) started by fn ("MPI_Isend", or "MPI_Start" of a persistent
   send): hash the buffer, keep it in r. */
void shmpi_p2p_bufcheck_started(struct shmpi_request *r,
                                const struct shmpi_request *send,
                                const char *fn) __attribute__((cold));
/* fn hands out the completions of reqs[0..count) that are complete:
   each one's buffer must hash as it did at its start. */
void shmpi_p2p_bufcheck_ended(const char *fn, int count,
                              const MPI_Request reqs[]) __attribute__((cold));
/* MPI_Request_free of r, complete or not. */
void shmpi_p2p_bufcheck_freed(struct shmpi_request *r) __attribute__((cold));
/* Another room's record in r (check mode): done(ticket, fn) is called
   by the call that hands r's completion out, or by MPI_Request_free
   (fn "MPI_Request_free"), in place of a buffer's check; not counted
   among the sends at MPI_Finalize (rma/result_check.c: the result of
   an MPI_Rget watched until its request completes). */
void shmpi_p2p_bufcheck_on_end(struct shmpi_request *r,
                               void (*done)(uint64_t ticket, const char *fn),
                               uint64_t ticket) __attribute__((cold));
/* The sends started and neither completed nor freed (leftovers.c), and
   the oldest one's call in first. */
long shmpi_p2p_bufcheck_pending(char *first, size_t len);

#endif
