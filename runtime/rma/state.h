/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * state.h - what the RMA room keeps per process: shmpi_proc.rma,
 * allocated by shmpi_rma_init at MPI_Init and kept until the process
 * exits (windows a program never freed still name its extents, and the
 * mailbox's helper thread runs on).
 *
 * Process-private.  Every member is touched by one MPI caller at a time
 * (MPI_THREAD_SERIALIZED, init/init.c) - window creation and freeing,
 * attach/detach, the first access to a peer, counter allocation - so
 * each one would need a lock (or, for windows_made, an atomic) before
 * MPI_THREAD_MULTIPLE.  The mailbox's helper thread (map_vm.c) does not
 * touch this structure: it is handed the mailbox itself.
 */
#ifndef SHMPI_RMA_STATE_H
#define SHMPI_RMA_STATE_H

#include <stdint.h>

struct shmpi_extent;
struct shmpi_vm_mbox;
struct shmpi_vm_peer;
struct shmpi_sync_own;

struct shmpi_rma_state {
    /* map.c: this process's extents (memory shared or moved for
       windows); window creation, attach, detach and free. */
    struct shmpi_extent *extents;
    /* map_vm.c: reaching memory that cannot be shared. */
    struct shmpi_vm_state {
        struct shmpi_vm_mbox *own; /* this process's mailbox, or NULL */
        int own_fd;
        int serving;               /* the helper thread runs */
        int warned;
        struct shmpi_vm_peer *peers; /* reached by process_vm or mailbox;
                                      looked up by every such access */
    } vm;
    /* sync_counter.c: the owner's parts of this process's counter slots,
       [sync_per_rank], made at the first allocation; the slots
       themselves are in the arena (atomics). */
    struct shmpi_sync_own *sync_own;
    /* win_new.c: windows this process made as member 0; with the rank,
       the window's id, unique in the job while the window lives. */
    uint32_t windows_made;
};

/* MPI_Init: shmpi_proc.rma.  0, or -1 if out of memory. */
int shmpi_rma_init(void);

#endif
