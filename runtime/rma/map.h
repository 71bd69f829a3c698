/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * map.h - making this process's memory reachable by its peers, and
 * mapping theirs (map.c); private to runtime/rma/.
 *
 * Memory is shared as a memfd: the owner keeps the descriptor open, a
 * peer opens /proc/<owner pid>/fd/<fd> and maps what it needs.  A range
 * of this process's memory is reached in one of three ways:
 *   - it already lies in a memfd (MPI_Alloc_mem memory, window memory
 *     made by MPI_Win_allocate, or pages moved before): that one;
 *   - it is private anonymous memory (heap, anonymous mmap) or static
 *     data (.data/.bss of the program or of a shared library), and not
 *     on the calling thread's stack: its pages are moved onto a new
 *     memfd at the same addresses, contents kept ("remapped"), and moved
 *     back to private memory when the last window using them lets go;
 *   - anything else (stacks, file mappings, shared mappings of others,
 *     pages partly remapped for another window): not shareable, peers
 *     use process_vm_readv/writev at the owner's addresses.
 */
#ifndef SHMPI_RMA_MAP_H
#define SHMPI_RMA_MAP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* How one range of this process's memory can be reached by peers. */
struct shmpi_share {
    int fd;                    /* memfd holding it, -1: process_vm only */
    uint64_t offset;           /* where the range starts in fd */
    struct shmpi_extent *extent; /* map.c's, holding a reference; NULL
                                  for MPI_Alloc_mem memory */
};

/* A peer's memory mapped in this process. */
struct shmpi_win_view {
    void *addr;                /* NULL: nothing mapped */
    size_t len;
};

/* A new memfd of `bytes` (a multiple of the page size), zeroed and
   mapped shared at *base; the caller unmaps and closes it.  0 or an
   errno. */
int shmpi_rma_map_segment(size_t bytes, void **base, int *fd);

/* New zeroed memory of `bytes` (> 0) in a memfd of its own, mapped
   shared at *base, and known to shmpi_rma_map_share.  0 or an errno. */
int shmpi_rma_map_alloc(size_t bytes, void **base, struct shmpi_share *share);

/* How [base, base + bytes) is reached, remapping its pages if that is
   possible and needed (see above).  0; EFAULT if part of the range is
   not mapped in this process.  Never fails otherwise: what cannot be
   shared is reached with process_vm (share->fd = -1). */
int shmpi_rma_map_share(void *base, size_t bytes, struct shmpi_share *share);

/* Lets go of a share: the last reference to memory from
   shmpi_rma_map_alloc unmaps it, to remapped pages makes them private
   again (contents kept). */
void shmpi_rma_map_release(struct shmpi_share *share);

/* Maps [offset, offset + bytes) of the memfd that process pid holds as
   descriptor fd; *at is where offset landed.  0 or an errno (EACCES:
   the kernel refused to open the owner's descriptor). */
int shmpi_rma_map_peer(pid_t pid, int fd, uint64_t offset, size_t bytes,
                       unsigned char **at, struct shmpi_win_view *view);
void shmpi_rma_map_unview(struct shmpi_win_view *view);

/* map_vm.c: this process's mailbox, made on first use (a memfd that
   peers map when process_vm is refused to them): its descriptor, or -1
   if it cannot be made. */
int shmpi_rma_vm_mailbox(void);
/* map_vm.c: how this process reaches pid's memory: 1 if
   process_vm_readv works (tried once per pid, at probe, an address that
   is always readable there), else 0, and pid's mailbox (mbox_fd, -1:
   none) is mapped for shmpi_win_vm_readv/writev. */
int shmpi_rma_vm_connect(pid_t pid, uint64_t probe, int mbox_fd);
/* map_vm.c: the one warning line that says process_vm is refused and
   what is done instead; printed once per process (by member 0 of the
   windows that need a mailbox). */
void shmpi_rma_vm_warn(void);
/* map_vm.c: starts the helper thread that serves this process's
   mailbox, once per process.  0 or an errno. */
int shmpi_rma_vm_serve(void);

/* Called by a process whose window memory peers reach with process_vm:
   under Yama's ptrace_scope 1 (Ubuntu's default) only ancestors may
   attach, so it names the job's launcher (hdr->launcher_pid), the one
   common ancestor of the ranks, as its tracer: that lets the launcher's
   descendants (the other ranks, and what they start) attach, besides
   its ancestors and root.  A singleton (launcher 0) has no peers and
   names nobody. */
void shmpi_rma_map_allow_peers(pid_t launcher);

#endif
