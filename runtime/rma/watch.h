/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * watch.h - the check mode's watched memory (watch.c): every load and
 * store of the program to a byte range seen, by page protection and
 * single-stepping; the checks that need it (result_check.c) own what a
 * hit means.
 */
#ifndef SHMPI_RMA_WATCH_H
#define SHMPI_RMA_WATCH_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

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
/* A paged range: its pages are protected one by one, on demand, by
   shmpi_rma_watch_arm from any process, and an access to an armed page
   is handed to page(arg, addr, write) - in the signal handler, addr
   maybe outside [buf, buf + len) on the range's first or last page -
   which returns the protection the page keeps: PROT_NONE (every access
   seen), PROT_READ (stores), or PROT_READ | PROT_WRITE (watched no
   more); or -1: no page of the range watched any more.  armed: a count
   in memory the armers can read, raised (release)
   after each arm is in place.  An id, or -1 as shmpi_rma_watch_add. */
typedef int (*shmpi_rma_watch_page)(void *arg, void *addr, int write);
int shmpi_rma_watch_paged(const void *buf, size_t len,
                          shmpi_rma_watch_page page, void *arg,
                          _Atomic uint32_t *armed);
/* Ask process pid (this one too) to arm [off, off + len) of its paged
   range id, which starts at its address base, with prot (PROT_NONE or
   PROT_READ; a page keeps a stricter one): a real-time signal with the
   request in its value.  0 when sent (the range's armed count rises
   when done), else -1. */
int shmpi_rma_watch_arm(pid_t pid, int id, uintptr_t base, uint64_t off,
                        uint64_t len, int prot);
/* The same in this process, by a call of its own (not in a handler). */
void shmpi_rma_watch_arm_here(int id, uintptr_t base, uint64_t off,
                              uint64_t len, int prot);
/* Every page of paged range id watched no more (an epoch's end). */
void shmpi_rma_watch_disarm(int id);
/* The arg range id was added with. */
void *shmpi_rma_watch_arg(int id);
/* The range of id unwatched, its pages given back. */
void shmpi_rma_watch_remove(int id);

#endif
