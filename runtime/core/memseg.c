/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * memseg.c - MPI_Alloc_mem and MPI_Free_mem: memory other ranks can map.
 *
 * All of it lives in memfd segments mapped shared: no size fixed at
 * launch, no name anywhere (nothing to leak), and a peer can later map
 * the pages (through /proc/<pid>/fd/<fd>) so that windows over this
 * memory are accessed with plain loads, stores and memcpy.  Segments
 * are sparse, their pages taken at first touch, so a large request
 * costs no more than a small one; a request larger than the memory the
 * process may still take (RLIMIT_AS, its memory cgroup, the machine:
 * memlimit.c) gives MPI_ERR_NO_MEM here instead of an OOM kill later.
 *
 * Two sizes of request, so that a program allocating thousands of small
 * blocks does not need a descriptor each:
 *   - up to SMALL_MAX bytes: a power-of-two block from a 64 KiB slab of
 *     one size, slabs carved from 1 MiB pool segments; a bitmap per slab
 *     says which blocks are live, so MPI_Free_mem of anything else is
 *     caught;
 *   - larger: a segment of its own, rounded to whole pages.
 *
 * State: the segments and slabs are shmpi_proc.memseg (core/proc.h).
 * Threads (MPI_THREAD_MULTIPLE): its lock guards the lists, the slabs'
 * bitmaps and the pool, and every segment is mapped under it, since
 * shmpi_core_mem_grant's allowance (memlimit.c) is one read-modify-write
 * that MPI_Alloc_mem's callers must not interleave; a segment is
 * unmapped with the lock left.  Errors are raised with the lock left.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/error.h"
#include "core/lock.h"
#include "core/objects.h"
#include "core/pmpi.h"
#include "core/proc.h"
#include "core/memseg.h"

SHMPI_WEAK_ALIAS(Alloc_mem)
SHMPI_WEAK_ALIAS(Free_mem)

#define SMALL_MIN 64                  /* smallest block: a cache line */
#define SMALL_MAX (32 * 1024)
#define SLAB_BYTES (64 * 1024)
#define POOL_BYTES (1024 * 1024)
#define SLAB_WORDS (SLAB_BYTES / SMALL_MIN / 64)

struct shmpi_memseg {
    unsigned char *base;
    size_t bytes;              /* mapped length, whole pages */
    int fd;
    struct shmpi_memseg *next;
};

struct shmpi_slab {
    unsigned char *base;       /* SLAB_BYTES inside a pool segment */
    size_t block;              /* the one block size of this slab */
    int live;
    uint64_t used[SLAB_WORDS]; /* bit i: block i is allocated */
    struct shmpi_slab *next;
};

int shmpi_core_memfd_map(size_t bytes, const char *name, void **base, int *fd)
{
    int rc = 0;
    *fd = -1;
    if (!shmpi_core_mem_grant(bytes))
        return ENOMEM;
    *fd = memfd_create(name, MFD_CLOEXEC);
    if (*fd < 0)
        return errno;
    if (ftruncate(*fd, (off_t)bytes) != 0)
        rc = errno;
    if (rc == 0) {
        *base = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0);
        if (*base == MAP_FAILED)
            rc = errno;
    }
    if (rc != 0) {
        close(*fd);
        *fd = -1;
    }
    return rc;
}

static int map_segment(size_t bytes, struct shmpi_memseg **out)
{
    struct shmpi_memseg *s = malloc(sizeof *s);
    if (!s)
        return ENOMEM;
    void *base;
    int rc = shmpi_core_memfd_map(bytes, "shmpi-alloc-mem", &base, &s->fd);
    if (rc != 0) {
        free(s);
        return rc;
    }
    s->base = base;
    s->bytes = bytes;
    atomic_fetch_add_explicit(&shmpi_proc.memseg.mapped, bytes,
                              memory_order_relaxed);
    *out = s;
    return 0;
}

static void unmap_segment(struct shmpi_memseg *s)
{
    munmap(s->base, s->bytes);
    atomic_fetch_sub_explicit(&shmpi_proc.memseg.mapped, s->bytes,
                              memory_order_relaxed);
    close(s->fd);
    free(s);
}

static int new_slab(size_t block, struct shmpi_slab **out)
{
    struct shmpi_memseg_state *mem = &shmpi_proc.memseg;
    if (!mem->pools || mem->pool_used == POOL_BYTES) {
        struct shmpi_memseg *s;
        int rc = map_segment(POOL_BYTES, &s);
        if (rc != 0)
            return rc;
        s->next = mem->pools;
        mem->pools = s;
        mem->pool_used = 0;
    }
    struct shmpi_slab *sl = calloc(1, sizeof *sl);
    if (!sl)
        return ENOMEM;
    sl->base = mem->pools->base + mem->pool_used;
    mem->pool_used += SLAB_BYTES;
    sl->block = block;
    sl->next = mem->slabs;
    mem->slabs = sl;
    *out = sl;
    return 0;
}

static void *take_block(struct shmpi_slab *sl)
{
    size_t n = SLAB_BYTES / sl->block;
    for (size_t i = 0; i < n; i++)
        if (!(sl->used[i / 64] & (1ull << (i % 64)))) {
            sl->used[i / 64] |= 1ull << (i % 64);
            sl->live++;
            return sl->base + i * sl->block;
        }
    return NULL;
}

static int alloc_small(size_t size, void **out)
{
    struct shmpi_memseg_state *mem = &shmpi_proc.memseg;
    size_t block = SMALL_MIN;
    while (block < size)
        block *= 2;
    struct shmpi_slab *sl;
    for (sl = mem->slabs; sl; sl = sl->next)
        if (sl->block == block && sl->live < (int)(SLAB_BYTES / block))
            break;
    if (!sl) {
        int rc = new_slab(block, &sl);
        if (rc != 0)
            return rc;
    }
    *out = take_block(sl);
    return 0;
}

static int alloc_large(size_t size, void **out)
{
    struct shmpi_memseg_state *mem = &shmpi_proc.memseg;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    struct shmpi_memseg *s;
    int rc = map_segment((size + page - 1) / page * page, &s);
    if (rc == 0) {
        s->next = mem->large;
        mem->large = s;
        *out = s->base;
    }
    return rc;
}

/* Through MPI_COMM_WORLD's handler: MPI_Alloc_mem has no communicator
   (MPI-3.1 8.3). */
static int no_mem(const char *fn, MPI_Aint size, int rc)
{
    const char *limit;
    uint64_t room = shmpi_core_mem_room(&limit);
    if (rc == ENOMEM && limit && (uint64_t)size > room)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, fn,
                           "%ld bytes is more than this process may still "
                           "take: %" PRIu64 " bytes under %s",
                           (long)size, room, limit);
    return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, fn,
                       "cannot allocate %ld bytes of shared memory: %s",
                       (long)size, strerror(rc));
}

static int info_ok(MPI_Info info)
{
    return info == MPI_INFO_NULL || info->magic == SHMPI_MAGIC_INFO;
}

int PMPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr)
{
    static const char *fn = "MPI_Alloc_mem";
    SHMPI_REQUIRE_INIT(fn);
    if (size < 0)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn,
                           "size %ld is negative", (long)size);
    if (!baseptr)
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, fn,
                           "baseptr is NULL");
    if (!info_ok(info))
        return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_INFO, fn,
                           "invalid info object");
    void *p = NULL;
    shmpi_core_lock(&shmpi_proc.memseg.lock);
    int rc = (size_t)size <= SMALL_MAX ? alloc_small((size_t)size, &p)
                                       : alloc_large((size_t)size, &p);
    shmpi_core_unlock(&shmpi_proc.memseg.lock);
    if (rc != 0)
        return no_mem(fn, size, rc);
    *(void **)baseptr = p;
    return MPI_SUCCESS;
}

static int free_small(unsigned char *p)
{
    struct shmpi_memseg_state *mem = &shmpi_proc.memseg;
    for (struct shmpi_slab *sl = mem->slabs; sl; sl = sl->next) {
        if (p < sl->base || p >= sl->base + SLAB_BYTES)
            continue;
        size_t off = (size_t)(p - sl->base), i = off / sl->block;
        uint64_t bit = 1ull << (i % 64);
        if (off % sl->block || !(sl->used[i / 64] & bit))
            return 0;
        sl->used[i / 64] &= ~bit;
        sl->live--;
        return 1;
    }
    return 0;
}

/* With the lock held: the large segment at p, unlinked, or NULL. */
static struct shmpi_memseg *unlink_large(unsigned char *p)
{
    struct shmpi_memseg_state *mem = &shmpi_proc.memseg;
    for (struct shmpi_memseg **pp = &mem->large; *pp; pp = &(*pp)->next)
        if ((*pp)->base == p) {
            struct shmpi_memseg *s = *pp;
            *pp = s->next;
            return s;
        }
    return NULL;
}

static const struct shmpi_memseg *
segment_holding(const struct shmpi_memseg *list, const unsigned char *p,
                size_t bytes)
{
    for (; list; list = list->next)
        if (p >= list->base && bytes <= list->bytes &&
            (size_t)(p - list->base) <= list->bytes - bytes)
            return list;
    return NULL;
}

int shmpi_core_memseg_find(const void *p, size_t bytes, int *fd,
                           uint64_t *offset)
{
    struct shmpi_memseg_state *mem = &shmpi_proc.memseg;
    shmpi_core_lock(&mem->lock);
    const struct shmpi_memseg *s = segment_holding(mem->large, p, bytes);
    if (!s)
        s = segment_holding(mem->pools, p, bytes);
    if (s) {
        *fd = s->fd;
        *offset = (uint64_t)((const unsigned char *)p - s->base);
    }
    shmpi_core_unlock(&mem->lock);
    return s != NULL;
}

int PMPI_Free_mem(void *base)
{
    SHMPI_REQUIRE_INIT("MPI_Free_mem");
    struct shmpi_core_lock *lock = &shmpi_proc.memseg.lock;
    shmpi_core_lock(lock);
    int small = free_small(base);
    struct shmpi_memseg *s = small ? NULL : unlink_large(base);
    shmpi_core_unlock(lock);
    if (s)
        unmap_segment(s);
    if (small || s)
        return MPI_SUCCESS;
    return shmpi_raise(MPI_COMM_WORLD, MPI_ERR_BASE, "MPI_Free_mem",
                       "%p was not returned by MPI_Alloc_mem (or was "
                       "already freed)", base);
}
