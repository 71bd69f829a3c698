/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * state.h - what the RMA room keeps per process: shmpi_proc.rma,
 * allocated by shmpi_rma_init at MPI_Init and kept until the process
 * exits (windows a program never freed still name its extents, and the
 * mailbox's helper thread runs on).
 *
 * Process-private.  Under MPI_THREAD_MULTIPLE several threads may make
 * RMA calls at once, so every change of a member is made holding `lock`
 * (core/lock.h: nothing below MULTIPLE): window creation and freeing,
 * attach/detach (extents), the first access to a peer (vm), counter
 * allocation and freeing (sync_own), windows_made.  Readers that run on
 * every RMA call do not take it: vm.peers is an append-only list whose
 * nodes are published with release (map_vm.c says how), and a window's
 * own state is guarded by the window (win.h).  The mailbox's helper
 * thread (map_vm.c) does not touch this structure: it is handed the
 * mailbox itself.
 */
#ifndef SHMPI_RMA_STATE_H
#define SHMPI_RMA_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "core/lock.h"

struct shmpi_extent;
struct shmpi_vm_mbox;
struct shmpi_vm_peer;
struct shmpi_sync_own;

struct shmpi_rma_state {
    /* held for every change of the members below */
    struct shmpi_core_lock lock;
    /* map.c: this process's extents (memory shared or moved for
       windows); window creation, attach, detach and free. */
    struct shmpi_extent *extents;
    /* map_vm.c: reaching memory that cannot be shared. */
    struct shmpi_vm_state {
        struct shmpi_vm_mbox *own; /* this process's mailbox, or NULL */
        int own_fd;
        int serving;               /* the helper thread runs */
        _Atomic int warned;        /* its line was printed (exchange) */
        /* reached by process_vm or mailbox; looked up by every such
           access without the lock: pushed at the head, never removed,
           the head stored with release (map_vm.c) */
        struct shmpi_vm_peer *_Atomic peers;
    } vm;
    /* sync_counter.c: the owner's parts of this process's counter slots,
       [sync_per_rank], made at the first allocation; the slots
       themselves are in the arena (atomics). */
    struct shmpi_sync_own *sync_own;
    /* win_new.c: windows this process made as member 0; with the rank,
       the window's id, unique in the job while the window lives. */
    _Atomic uint32_t windows_made;
};

/* MPI_Init: shmpi_proc.rma.  0, or -1 if out of memory. */
int shmpi_rma_init(void);

/* state.c: every RMA call that blocks waits here, until what->ready(arg)
   - a poll that changes nothing but what it waits for (takes a lock
   word, sees a count) - returns non-zero; the pt2pt progress engine
   turns meanwhile when `progress` says so (a rank waiting for a lock
   still serves the messages its peers need, lockword.c).  Below
   MULTIPLE it is shmpi_core_wait_until, whatever the thread level:
   under MULTIPLE the engine's polls skip a lane another thread holds
   (pt2pt/lane.h).  what->describe(arg, buf, len) is the deadlock
   report's line for it (core/wait.h's describe; NULL: a line that says
   only "an RMA synchronization"); what is static, one per kind of wait,
   so that nothing is paid for it unless the rank sleeps and the
   launcher asks. */
struct shmpi_rma_waitfor {
    int (*ready)(void *arg);
    int (*describe)(void *arg, char *buf, size_t len);
};
void shmpi_rma_wait(const struct shmpi_rma_waitfor *what, void *arg,
                    int progress);
/* state.c: one turn of the pt2pt progress engine for a poll that found
   nothing (MPI_Win_test). */
void shmpi_rma_progress(void);

#endif
