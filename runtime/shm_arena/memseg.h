/*
 * memseg.h - what the rest of the library asks of MPI_Alloc_mem's
 * memory (memseg.c).
 */
#ifndef SHMPI_MEMSEG_H
#define SHMPI_MEMSEG_H

#include <stddef.h>
#include <stdint.h>

/* A new memfd named `name` (for /proc/<pid>/maps; it has no file name),
   close-on-exec, of `bytes` reserved at once with posix_fallocate (out
   of memory shows here, never as SIGBUS later), zeroed and mapped shared
   at *base.  0, or an errno and *fd = -1. */
int shmpi_memfd_map(size_t bytes, const char *name, void **base, int *fd);

/* 1 if [p, p + bytes) lies inside one memfd segment of MPI_Alloc_mem
   (windows over such memory are mapped by their peers through
   /proc/<pid>/fd/<fd>): *fd is the segment's descriptor, *offset where p
   is in it.  0 otherwise. */
int shmpi_memseg_find(const void *p, size_t bytes, int *fd,
                      uint64_t *offset);

#endif
