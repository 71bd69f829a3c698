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
 * the fixed part (header, slots, post blocks) and area 0's head up front: a
 * /dev/shm too small for the job fails here, with a message naming the
 * size, instead of killing a rank with SIGBUS later; everything else is
 * sparse and reserved as it is used, through shmpi_arena_reserve
 * (arena.h says who reserves what).
 *
 * Attach (rank side): the descriptor arrives through exec (its number in
 * SHMPI_ARENA_FD); the rank maps [0, shmpi_arena_view_bytes) - the
 * fixed part, the tables and lane 0 - and checks the header.  Lanes
 * past 0 are mapped one by one by pt2pt/conn.c when the process first
 * uses them, and collective areas one by one by coll/area.c, so a rank's
 * address space holds the lanes and areas of its own communicators
 * only: an idle job of 64 ranks used to map 3 GiB per rank (every area),
 * enough to fail under a `ulimit -v` that Open MPI and MPICH run under.
 */
#include "shm_arena/arena.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

static size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

/*
 * Size of each of `count` sparse pieces (hot rings: SHMPI_RING_KB and
 * SHMPI_FAST_RINGS per (rank, lane); outboxes: SHMPI_OUTBOX_KB, one per
 * (rank, lane);
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
 * reserved by the rank at its first counter: 16 KiB per rank by
 * default), capped so that every
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
 * passes here in p): sets the header's coll_* fields.  Area 0 is
 * MPI_COMM_WORLD's from the start.
 */
static void coll_layout(struct shmpi_arena_header *h, uint64_t offset,
                        const struct shmpi_arena_params *p)
{
    uint64_t n = h->nranks;
    h->coll_offset = round_up(offset, 4096);
    uint64_t areas = p->coll_areas;
    if (areas > SHMPI_COLL_AREAS_MAX)
        areas = SHMPI_COLL_AREAS_MAX;
    if (n < 2 || areas == 0)
        return; /* no areas (one process: none needed) */
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
}

/* The claim tables start on a page of their own, and each is a page, so
   that a rank reserves a page of its own (arena.h); so do the sync
   counters, whose tables are whole pages unless SHMPI_SYNC_COUNTERS is
   not a multiple of 64 (then two ranks may reserve a page they share,
   which costs nothing: reserving is idempotent). */
static void layout(struct shmpi_arena_header *h, int nranks,
                   const struct shmpi_arena_params *p)
{
    h->nranks = (uint32_t)nranks;
    h->slots_offset =
        round_up(sizeof(struct shmpi_arena_header), SHMPI_CACHELINE);
    h->fast_rings = nranks > 1 ? p->fast_rings : 0;
    h->lanes = p->lanes ? p->lanes : 1;
    size_t ends = (size_t)nranks * h->lanes; /* pt2pt endpoints */
    h->post_offset =
        h->slots_offset + (size_t)nranks * sizeof(struct shmpi_rank_slot);
    h->post_stride = SHMPI_POST_SLOTS_AT +
                     round_up((size_t)h->fast_rings * sizeof(uint32_t),
                              SHMPI_CACHELINE);
    h->fixed_bytes =
        round_up(h->post_offset + ends * h->post_stride, 4096);
    h->claims_offset = h->fixed_bytes;
    h->sync_offset = h->claims_offset + SHMPI_ARENA_CLAIMS_BYTES * nranks;
    h->sync_per_rank = sync_per_rank_for(nranks, p->sync_per_rank);
    h->outbox_offset = round_up(
        h->sync_offset + shmpi_arena_sync_bytes(h) * nranks, 4096);
    h->outbox_bytes =
        nranks > 1 ? piece_bytes_for(ends, p->outbox_bytes) : 0;
    /* lane-major: lane 0's outboxes and rings, then lane 1's, ...; the
       pieces are whole pages, so every lane's region starts on one */
    h->rings_offset = h->outbox_offset + (size_t)nranks * h->outbox_bytes;
    /* a slot is two rings' worth of address space: pt2pt moves a pair
       to a larger ring in the slot's other half (pt2pt/conn.c) */
    h->ring_bytes = h->fast_rings
                        ? piece_bytes_for(ends * h->fast_rings * 2,
                                          p->ring_bytes)
                        : 0;
    h->lane_bytes = (size_t)nranks * (h->outbox_bytes +
                                      h->fast_rings * 2 * h->ring_bytes);
    coll_layout(h, h->outbox_offset + h->lanes * h->lane_bytes, p);
    h->bytes = h->coll_offset + (size_t)h->coll_areas * h->coll_area_bytes;
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

/* "N bytes free of M in /dev/shm", from the file system of fd. */
static void shm_room(int fd, char *out, size_t outlen)
{
    struct statvfs v;
    if (fstatvfs(fd, &v) != 0) {
        snprintf(out, outlen, "its free space unknown");
        return;
    }
    snprintf(out, outlen, "%llu bytes free of %llu",
             (unsigned long long)v.f_bavail * v.f_frsize,
             (unsigned long long)v.f_blocks * v.f_frsize);
}

int shmpi_arena_reserve(int fd, uint64_t offset, uint64_t bytes,
                        const char *what, char *err, size_t errlen)
{
    int rc = posix_fallocate(fd, (off_t)offset, (off_t)bytes);
    if (rc != 0) {
        char room[96];
        shm_room(fd, room, sizeof room);
        snprintf(err, errlen,
                 "cannot reserve %llu bytes in /dev/shm for %s (%s: %s)",
                 (unsigned long long)bytes, what, strerror(rc), room);
    }
    return rc;
}

void *shmpi_arena_map(int fd, uint64_t offset, uint64_t bytes,
                      const char *what, char *err, size_t errlen)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
                   (off_t)offset);
    if (p != MAP_FAILED)
        return p;
    int e = errno;
    struct rlimit rl;
    int by_rlimit = e == ENOMEM && getrlimit(RLIMIT_AS, &rl) == 0 &&
                    rl.rlim_cur != RLIM_INFINITY;
    snprintf(err, errlen, "cannot map %llu bytes of the arena for %s: %s%s",
             (unsigned long long)bytes, what, strerror(e),
             by_rlimit ? " (the address space is limited: ulimit -v)" : "");
    return NULL;
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
    if (ftruncate(fd, (off_t)want.bytes) != 0) {
        snprintf(err, errlen, "cannot size the arena to %llu bytes: %s",
                 (unsigned long long)want.bytes, strerror(errno));
        close(fd);
        return -1;
    }
    char why[192];
    if (shmpi_arena_reserve(fd, 0, want.fixed_bytes, "the job's arena", why,
                            sizeof why) != 0 ||
        (want.coll_areas &&
         shmpi_arena_reserve(fd, want.coll_offset, want.coll_data_offset,
                             "MPI_COMM_WORLD's collective area", why,
                             sizeof why) != 0)) {
        snprintf(err, errlen, "%s; free space there or enlarge it (mount "
                 "-o remount,size=... /dev/shm)", why);
        close(fd);
        return -1;
    }
    struct shmpi_arena_header *hdr =
        shmpi_arena_map(fd, 0, want.fixed_bytes, "the launcher", err, errlen);
    if (!hdr) {
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
    struct shmpi_arena_header h;
    if (fstat(fd, &st) != 0) {
        snprintf(err, errlen, "arena descriptor %d: %s", fd, strerror(errno));
        return NULL;
    }
    if ((size_t)st.st_size < sizeof h ||
        pread(fd, &h, sizeof h, 0) != (ssize_t)sizeof h ||
        h.magic != SHMPI_ARENA_MAGIC || h.nranks != (uint32_t)nranks ||
        h.bytes != (uint64_t)st.st_size) {
        snprintf(err, errlen,
                 "descriptor %d is not this job's arena (is the program "
                 "linked with another version of shmpi?)", fd);
        return NULL;
    }
    return shmpi_arena_map(fd, 0, shmpi_arena_view_bytes(&h), "this rank",
                           err, errlen);
}

void shmpi_arena_detach(struct shmpi_arena_header *hdr)
{
    munmap(hdr, hdr->fixed_bytes);
}

void shmpi_arena_leave(struct shmpi_arena_header *hdr)
{
    munmap(hdr, shmpi_arena_view_bytes(hdr));
}
