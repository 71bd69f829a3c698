/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * watch.h - the check mode's watched memory (watch.c): every load and
 * store of the program to a byte range seen, by page protection and
 * single-stepping; the checks that need it (result_check.c) own what a
 * hit means.
 */
#ifndef SHMPI_RMA_WATCH_H
#define SHMPI_RMA_WATCH_H

#include <stddef.h>

/* An access to byte addr of a watched range (write: a store, else a
   load), in a signal handler: async-signal-safe work only.  The range
   is off from then on, and its id still the owner's to remove. */
typedef void (*shmpi_rma_watch_hit)(void *arg, void *addr, int write);

/* Whether anything can be watched in this process: x86-64, below
   MPI_THREAD_MULTIPLE (watch.c says why). */
int shmpi_rma_watch_possible(void);

/* Watch [buf, buf + len): an id, or -1 when it cannot (not possible,
   the table full, the range on the caller's stack or beside the
   handlers' state). */
int shmpi_rma_watch_add(const void *buf, size_t len, shmpi_rma_watch_hit hit,
                        void *arg);
/* on: the calling thread's next accesses are the library's (a get's
   copy into a buffer a pending get watches), let through unreported,
   until shmpi_rma_watch_quiet(0). */
void shmpi_rma_watch_quiet(int on);
/* The range of id unwatched, its pages given back. */
void shmpi_rma_watch_remove(int id);

#endif
