/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * arena.c - create and attach the job's shared control segment.
 *
 * Creation (launcher side): an unnamed tmpfs file on /dev/shm made with
 * O_TMPFILE | O_EXCL, mode 0600.  It never has a name, so nothing can
 * find it by name and no crash can leave it behind; it is freed when the
 * last process holding it exits.  Kernels or mounts without O_TMPFILE
 * get the classic shm_open of a random 128-bit name with O_CREAT|O_EXCL,
 * unlinked again before any rank is forked.  Other users and other jobs
 * therefore cannot open it by name; but any process with ptrace read
 * access to a rank (the same user, the rank dumpable; or root) can open
 * it through /proc/<pid>/fd/<n> of that rank, as the ranks open each
 * other's memory files (shmpi(7), THE ARENA).  posix_fallocate reserves
 * every page up front: a /dev/shm too small for the job fails here, with
 * a message, instead of killing a rank with SIGBUS later; the outboxes,
 * hot rings and collective areas are sparse and reserved as they are
 * used (arena.h).
 *
 * Attach (rank side): the descriptor arrives through exec (its number in
 * SHMPI_ARENA_FD); the rank maps it and checks the header.
 */
#include "shm_arena/arena.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

static size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

/*
 * Size of each of `count` sparse pieces (hot rings: SHMPI_RING_KB and
 * SHMPI_FAST_RINGS per rank; outboxes: SHMPI_OUTBOX_KB, one per rank;
 * core/tunables.c): the creator's, in pages, shrunk for very large jobs
 * so that the region stays within 64 GiB of address space, never below
 * 16 KiB.  Only what is used takes memory.
 */
static size_t piece_bytes_for(size_t count, uint64_t want)
{
    size_t piece = round_up(want, 4096);
    while (piece > 16384 && count * piece > (64ull << 30))
        piece /= 2;
    return piece;
}

/*
 * Sync counters per process (SHMPI_SYNC_COUNTERS; a cache line each,
 * reserved at launch: 16 KiB per rank by default), capped so that every
 * counter of the job has an index below 2^21 (rma/sync_counter.h).
 */
static uint32_t sync_per_rank_for(int nranks, uint32_t want)
{
    uint32_t most = (uint32_t)(((1l << 21) - 1) / nranks);
    return want < most ? want : most;
}

/*
 * The collective areas, from `offset` on (coll/area.c documents
 * SHMPI_COLL_AREAS and SHMPI_COLL_SLOT_KB, which the launcher reads and
 * passes here in p): sets the header's coll_* fields and
 * returns the end of area 0, which is reserved with the fixed part (the
 * other areas follow, sparse).
 */
static uint64_t coll_layout(struct shmpi_arena_header *h, uint64_t offset,
                            const struct shmpi_arena_params *p)
{
    uint64_t n = h->nranks;
    h->coll_offset = round_up(offset, 4096);
    uint64_t areas = p->coll_areas;
    if (areas > SHMPI_COLL_AREAS_MAX)
        areas = SHMPI_COLL_AREAS_MAX;
    if (n < 2 || areas == 0)
        return h->coll_offset; /* no areas (one process: none needed) */
    uint64_t slot = round_up(p->coll_slot_bytes, 8192);
    if (slot < 8192)
        slot = 8192;
    h->coll_data_offset =
        round_up(SHMPI_COLL_HEAD_BYTES + n * SHMPI_COLL_CTL_BYTES, 4096);
    while (slot > 8192 &&
           areas * (h->coll_data_offset + n * slot) > (16ull << 30))
        slot /= 2;
    h->coll_slot_bytes = slot;
    h->coll_area_bytes = h->coll_data_offset + n * slot;
    h->coll_areas = (uint32_t)areas;
    atomic_store_explicit(&h->coll_used[0], 1, memory_order_relaxed);
    return h->coll_offset + h->coll_data_offset;
}

static void layout(struct shmpi_arena_header *h, int nranks,
                   const struct shmpi_arena_params *p)
{
    h->nranks = (uint32_t)nranks;
    h->slots_offset =
        round_up(sizeof(struct shmpi_arena_header), SHMPI_CACHELINE);
    h->claims_offset = round_up(h->slots_offset + (size_t)nranks *
                                                      sizeof(struct
                                                             shmpi_rank_slot),
                                SHMPI_CACHELINE);
    h->sync_offset = round_up(h->claims_offset + (size_t)nranks *
                                                     SHMPI_CLAIMS *
                                                     sizeof(uint32_t),
                              SHMPI_CACHELINE);
    h->sync_per_rank = sync_per_rank_for(nranks, p->sync_per_rank);
    h->fast_rings = nranks > 1 ? p->fast_rings : 0;
    h->post_offset = h->sync_offset + (size_t)nranks * h->sync_per_rank *
                                          SHMPI_CACHELINE;
    h->post_stride = SHMPI_POST_SLOTS_AT +
                     round_up((size_t)h->fast_rings * sizeof(uint32_t),
                              SHMPI_CACHELINE);
    h->reserved_bytes = round_up(
        coll_layout(h, h->post_offset + (size_t)nranks * h->post_stride, p),
        4096);
    h->outbox_offset = round_up(
        h->coll_offset + (size_t)h->coll_areas * h->coll_area_bytes, 4096);
    h->outbox_bytes =
        nranks > 1 ? piece_bytes_for((size_t)nranks, p->outbox_bytes) : 0;
    h->rings_offset = h->outbox_offset + (size_t)nranks * h->outbox_bytes;
    h->ring_bytes = h->fast_rings
                        ? piece_bytes_for((size_t)nranks * h->fast_rings,
                                          p->ring_bytes)
                        : 0;
    h->bytes = h->rings_offset +
               (size_t)nranks * h->fast_rings * h->ring_bytes;
}

/* A name nobody can guess: 128 random bits. */
static int open_named_fallback(char *err, size_t errlen)
{
    unsigned char rnd[16];
    char name[64];
    if (getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd) {
        snprintf(err, errlen, "getrandom: %s", strerror(errno));
        return -1;
    }
    int n = snprintf(name, sizeof name, "/shmpi-");
    for (size_t i = 0; i < sizeof rnd; i++)
        n += snprintf(name + n, sizeof name - n, "%02x", rnd[i]);
    int fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
    if (fd < 0) {
        snprintf(err, errlen, "shm_open %s: %s", name, strerror(errno));
        return -1;
    }
    shm_unlink(name);
    return fd;
}

static int open_unnamed(char *err, size_t errlen)
{
    int fd = open("/dev/shm", O_TMPFILE | O_RDWR | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0)
        return fd;
    if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL &&
        errno != ENOENT) {
        snprintf(err, errlen, "cannot create a file in /dev/shm: %s",
                 strerror(errno));
        return -1;
    }
    fd = open_named_fallback(err, errlen);
    if (fd >= 0)
        fcntl(fd, F_SETFD, FD_CLOEXEC);
    return fd;
}

int shmpi_arena_create(int nranks, int ncpus,
                       const struct shmpi_arena_params *params, int *fd_out,
                       struct shmpi_arena_header **hdr_out,
                       char *err, size_t errlen)
{
    struct shmpi_arena_header want = {0};
    layout(&want, nranks, params);
    int fd = open_unnamed(err, errlen);
    if (fd < 0)
        return -1;
    int rc = ftruncate(fd, (off_t)want.bytes) ? errno
             : posix_fallocate(fd, 0, (off_t)want.reserved_bytes);
    if (rc != 0) {
        snprintf(err, errlen,
                 "cannot reserve %lu bytes in /dev/shm (%s); free space there "
                 "or enlarge it (mount -o remount,size=... /dev/shm)",
                 (unsigned long)want.reserved_bytes, strerror(rc));
        close(fd);
        return -1;
    }
    struct shmpi_arena_header *hdr =
        mmap(NULL, want.bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (hdr == MAP_FAILED) {
        snprintf(err, errlen, "mmap of the arena: %s", strerror(errno));
        close(fd);
        return -1;
    }
    /* fallocate'd tmpfs pages read as zero: only non-zero fields are set */
    *hdr = want;
    hdr->magic = SHMPI_ARENA_MAGIC;
    hdr->ncpus = (uint32_t)ncpus;
    *fd_out = fd;
    *hdr_out = hdr;
    return 0;
}

struct shmpi_arena_header *shmpi_arena_attach(int fd, int nranks,
                                              char *err, size_t errlen)
{
    struct stat st;
    if (fstat(fd, &st) != 0) {
        snprintf(err, errlen, "arena descriptor %d: %s", fd, strerror(errno));
        return NULL;
    }
    struct shmpi_arena_header *hdr = mmap(NULL, (size_t)st.st_size,
                                          PROT_READ | PROT_WRITE, MAP_SHARED,
                                          fd, 0);
    if (hdr == MAP_FAILED) {
        snprintf(err, errlen, "mmap of the arena: %s", strerror(errno));
        return NULL;
    }
    if (hdr->magic != SHMPI_ARENA_MAGIC || hdr->nranks != (uint32_t)nranks ||
        hdr->bytes != (uint64_t)st.st_size) {
        snprintf(err, errlen,
                 "descriptor %d is not this job's arena (is the program "
                 "linked with another version of shmpi?)", fd);
        munmap(hdr, (size_t)st.st_size);
        return NULL;
    }
    return hdr;
}

void shmpi_arena_detach(struct shmpi_arena_header *hdr)
{
    munmap(hdr, hdr->bytes);
}
