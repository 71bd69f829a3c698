/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * memseg.h - what the rest of the library asks of MPI_Alloc_mem's
 * memory (memseg.c).
 */
#ifndef SHMPI_MEMSEG_H
#define SHMPI_MEMSEG_H

#include <stddef.h>
#include <stdint.h>

/* A new memfd named `name` (for /proc/<pid>/maps; it has no file name),
   close-on-exec, of `bytes`, zeroed and mapped shared at *base.  Sparse:
   pages are taken when first touched; a request that does not fit
   (shmpi_core_mem_grant) is refused with ENOMEM.  0, or an errno and
   *fd = -1. */
int shmpi_core_memfd_map(size_t bytes, const char *name, void **base, int *fd);

/* How many bytes this process may still take: the least room under
   RLIMIT_AS, its memory cgroup and the machine's available memory
   (memlimit.c); *limit (if limit is not NULL) names the limit that gave
   it, NULL when none is known (then UINT64_MAX). */
uint64_t shmpi_core_mem_room(const char **limit);

/* Grants `bytes` to a new mapping: 0 if they are more than
   shmpi_core_mem_room(), else 1, and the grant is written off an
   allowance (shmpi_proc.mem_allowance) - not a pure check, so call it
   once per mapping.  Requests below 16 MiB are checked only when they
   exceed the allowance, which each check refills to half the room it
   left, at most 64 MiB (memlimit.c says why). */
int shmpi_core_mem_grant(size_t bytes);

/* 1 if [p, p + bytes) lies inside one memfd segment of MPI_Alloc_mem
   (windows over such memory are mapped by their peers through
   /proc/<pid>/fd/<fd>): *fd is the segment's descriptor, *offset where p
   is in it.  0 otherwise. */
int shmpi_core_memseg_find(const void *p, size_t bytes, int *fd,
                           uint64_t *offset);

#endif
