/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * area.c - the collective areas: where they are in the arena, who owns
 * which, and the per-communicator state that points at one.
 *
 * Layout of one area (for a job of N ranks; a communicator of n members
 * uses the first n lines and slots):
 *     head (4 cache lines) | ctl line[N] | pad to a page | slot[N]
 * Slots are whole pages, so punching a released area out of the file
 * frees everything but the few lines of the head and control part.  The
 * launcher lays the areas out with the rest of the arena
 * (shm_arena/arena.c), from the sizes in shm_arena/arena.h, which coll.h
 * checks its structures against.
 *
 * Ownership: the bitmap coll_used in the arena header says which areas
 * are taken.  The process that creates a communicator (rank 0 of the
 * parent, which also picks the context) takes a free bit with a CAS
 * (acquire: the pages it then sees are the punched, zeroed ones),
 * reserves the pages of the head and control lines with posix_fallocate
 * (so that a full /dev/shm means "no area, use messages" now rather than
 * SIGBUS later) and sets the head's reference count to the number of
 * members (area 0, MPI_COMM_WORLD's, is taken and its head reserved by
 * the arena's creator; in the check mode every process takes the last
 * one at MPI_Init for the order check's records: order_check.c).  The area's index then travels to the members
 * with the context, in the message that creates the communicator
 * (comm/comm_create.c), whose ring orders these stores before the
 * members' first use.  Each member drops one reference when its
 * communicator object goes (MPI_Comm_free, or later if something still
 * uses it); the last one (acq_rel decrement: every member's use happens
 * before it) punches the pages out and clears the bit (release).  A
 * fresh area is all zeros, which is exactly "no collective yet".
 *
 * Mapping: the arena maps no area (shm_arena/arena.h).  A member maps
 * its communicator's area whole when it attaches (map_area, the one
 * place that finds an area in the file) and unmaps it when the
 * communicator object goes; the creator maps the head for a moment to
 * set the count, and so does a member that drops a reference it never
 * attached.  So an idle rank maps area 0 only, where it used to map all
 * SHMPI_COLL_AREAS of them (3 GiB at np = 64).  A member that cannot
 * map it (ulimit -v) fails the call that makes the communicator with
 * MPI_ERR_NO_MEM and a line with the bytes: it cannot fall back to
 * messages alone while the others use the area.
 *
 * Data slots are reserved by their member, in steps, before it writes
 * (shmpi_coll_reserve, called by shmpi_coll_move and
 * shmpi_coll_reduction with the bytes the collective puts in a half):
 * the first page, then doubling up to the half, the same extent in both
 * halves since consecutive collectives alternate.  A communicator that
 * only synchronizes, or moves blocks of up to SHMPI_COLL_INLINE bytes
 * (which ride in the control line), reserves no slot at all.  A /dev/shm
 * too full for a step makes that collective fail with MPI_ERR_NO_MEM,
 * before it writes anything (the member refuses it: sync.c).
 *
 * Why nobody touches a page its owner has not reserved: a member reads
 * another's half only after waiting for that member's word of the same
 * collective and round, which it stores (release) after writing the half
 * and so after reserving it; and it reads no further than the length
 * the writer published in its control line, which is what the writer
 * reserved for: xchg.c reads min(published, expected) bytes of a
 * writer's half (ONE) or of its own region in it (EACH: the writer
 * reserves every region up to the longest block it sends); reduce.c
 * reads, and folds in place, the pieces each member packed in that round
 * (all members reduce the same count, so the same lengths).  Only a
 * program that breaks the standard (a reduction whose members give
 * different counts) could read past a reservation, which on a tmpfs
 * takes a page - or, with /dev/shm full, is the SIGBUS the reservations
 * keep correct programs from.
 *
 * Tunables (core/tunables.c; one value for the whole job, checked in
 * every rank at MPI_Init):
 *   SHMPI_COLL_SLOT_KB  each member's data slot in an area (default 128
 *                       KiB; two halves of 64 KiB).  Read by the
 *                       launcher, which passes it to the arena's layout
 *                       (shm_arena/arena.c); shrunk for very large jobs
 *                       so that the areas stay within 16 GiB of address
 *                       space, never below 8 KiB.
 *   SHMPI_COLL_AREAS    how many areas, i.e. communicators of more than
 *                       one process that can exist at once with
 *                       shared-memory collectives (default 256, at most
 *                       1024); the others use messages.  0: none at all,
 *                       every collective on messages (for comparison and
 *                       tests).  Launcher too.
 *   SHMPI_COLL_FOLD_MAX reductions of at most this many bytes are folded
 *                       whole by every rank that needs the result; larger
 *                       ones are reduced in slices, each rank its own
 *                       (default 16384 bytes).
 *   SHMPI_COLL_BARRIER  "dissemination" or "counter" (default:
 *                       dissemination, counter when the job has more
 *                       ranks than CPUs; see barrier.c).
 *
 * State: the tunables are shmpi_proc.coll_tune (core/proc.h); each
 * communicator's collective state is its comm->coll, MPI_COMM_WORLD's
 * included (allocated here at MPI_Init); the schedules running are
 * shmpi_proc.nbc_active, one list per pt2pt lane (sched.c).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "coll/coll.h"
#include "coll/order_check.h"
#include "coll/pallreduce.h"
#include "coll/sched.h"

/* The first `bytes` of area index mapped (the whole area, or its head and
   control lines: coll_data_offset): the one place that finds an area in
   the arena, which maps no area itself (shm_arena/arena.h); NULL with
   the reason in err (how many bytes, ulimit -v). */
static unsigned char *map_area(uint32_t index, uint64_t bytes, char *err,
                               size_t errlen)
{
    struct shmpi_arena_header *a = shmpi_proc.arena;
    return shmpi_arena_map(shmpi_proc.arena_fd,
                           shmpi_arena_area_offset(a, index), bytes,
                           "a collective area", err, errlen);
}

static uint64_t free_bits(const struct shmpi_arena_header *a, uint32_t word,
                          uint64_t used)
{
    uint32_t first = word * 64;
    uint64_t valid = a->coll_areas - first >= 64
                         ? ~0ull
                         : (1ull << (a->coll_areas - first)) - 1;
    return ~used & valid;
}

/* Take a free bit of the bitmap; SHMPI_COLL_NO_AREA if none. */
static uint32_t take_bit(struct shmpi_arena_header *a)
{
    for (uint32_t w = 0; w * 64 < a->coll_areas; w++) {
        uint64_t used =
            atomic_load_explicit(&a->coll_used[w], memory_order_relaxed);
        uint64_t avail;
        while ((avail = free_bits(a, w, used)) != 0) {
            uint64_t bit = avail & -avail;
            if (atomic_compare_exchange_weak_explicit(
                    &a->coll_used[w], &used, used | bit,
                    memory_order_acquire, memory_order_relaxed))
                return w * 64 + (uint32_t)__builtin_ctzll(bit);
        }
    }
    return SHMPI_COLL_NO_AREA;
}

static void give_bit(struct shmpi_arena_header *a, uint32_t index)
{
    atomic_fetch_and_explicit(&a->coll_used[index / 64],
                              ~(1ull << (index % 64)), memory_order_release);
}

uint32_t shmpi_coll_area_take(int members)
{
    struct shmpi_arena_header *a = shmpi_proc.arena;
    char err[192];
    if (members < 2)
        return SHMPI_COLL_NO_AREA; /* a process alone needs no area */
    uint32_t index = take_bit(a);
    if (index == SHMPI_COLL_NO_AREA)
        return index;
    unsigned char *area = NULL;
    if (shmpi_arena_reserve(shmpi_proc.arena_fd,
                            shmpi_arena_area_offset(a, index),
                            a->coll_data_offset, "a collective area", err,
                            sizeof err) != 0 ||
        !(area = map_area(index, a->coll_data_offset, err, sizeof err))) {
        give_bit(a, index);
        return SHMPI_COLL_NO_AREA;
    }
    atomic_store_explicit(&((struct shmpi_coll_head *)area)->refs,
                          (uint32_t)members, memory_order_relaxed);
    munmap(area, a->coll_data_offset);
    return index;
}

/* Bytes [0, bytes) of both halves of this member's slot have their pages
   (the two halves alternate between consecutive collectives, so both
   grow alike).  Reserved in steps, doubling from a page up to a half, so
   that a communicator that moves a few KiB at a time costs a few pages
   per member and one that grows to the full half reserves O(log) times. */
int shmpi_coll_reserve(struct shmpi_coll *c, uint64_t bytes, char *err,
                       size_t errlen)
{
    if (bytes <= c->reserved)
        return MPI_SUCCESS;
    uint64_t want = c->reserved ? c->reserved : 4096;
    while (want < bytes)
        want *= 2;
    if (want > c->half)
        want = c->half;
    uint64_t slot = shmpi_arena_area_offset(shmpi_proc.arena, c->index) +
                    (uint64_t)(shmpi_coll_half(c, c->rank, 0) - c->area);
    for (int h = 0; h < 2; h++)
        if (shmpi_arena_reserve(shmpi_proc.arena_fd,
                                slot + (uint64_t)h * c->half, want,
                                "this rank's slot of the collective area",
                                err, errlen) != 0)
            return MPI_ERR_NO_MEM;
    c->reserved = want;
    return MPI_SUCCESS;
}

/* Drop one reference to an area whose head this process has mapped at
   `area`; the last one (acq_rel decrement: every member's use happens
   before it) gives the memory back and the area to the next
   communicator. */
static void release(uint32_t index, unsigned char *area)
{
    struct shmpi_arena_header *a = shmpi_proc.arena;
    if (atomic_fetch_sub_explicit(&((struct shmpi_coll_head *)area)->refs,
                                  1, memory_order_acq_rel) != 1)
        return;
    /* the pages read as zeros for the next owner.  Should the punch
       fail, the area is still all ours: zero its head and control lines,
       all a fresh area needs (what the slots hold is read only after it
       is written again) */
    if (fallocate(shmpi_proc.arena_fd,
                  FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                  (off_t)shmpi_arena_area_offset(a, index),
                  (off_t)a->coll_area_bytes) != 0)
        memset(area, 0, a->coll_data_offset);
    give_bit(a, index);
}

void shmpi_coll_area_drop(uint32_t index)
{
    char err[192];
    if (index == SHMPI_COLL_NO_AREA || index == 0)
        return;
    /* a process that cannot even map the head (ulimit -v) leaves the
       area taken: the job has one area fewer */
    uint64_t head = shmpi_proc.arena->coll_data_offset;
    unsigned char *area = map_area(index, head, err, sizeof err);
    if (!area)
        return;
    release(index, area);
    munmap(area, head);
}

static int ceil_log2(int n)
{
    int k = 0;
    while ((1 << k) < n)
        k++;
    return k;
}

static void state_init(struct shmpi_coll *c, MPI_Comm comm, uint32_t index,
                       unsigned char *area)
{
    struct shmpi_arena_header *a = shmpi_proc.arena;
    *c = (struct shmpi_coll){
        .area = area, .index = index, .rank = comm->rank,
        .size = comm->size, .context = comm->context,
        .world = comm->world_ranks, .comm = comm, .root = -1,
        .slot_bytes = a->coll_slot_bytes, .half = a->coll_slot_bytes / 2,
        .barrier_rounds = ceil_log2(comm->size)};
    c->slots = c->area + a->coll_data_offset;
}

/* comm's state on area index, mapped: 0, or -1 with the reason in err. */
static int open_area(MPI_Comm comm, uint32_t index, char *err, size_t errlen)
{
    struct shmpi_coll *c = malloc(sizeof *c);
    unsigned char *area =
        c ? map_area(index, shmpi_proc.arena->coll_area_bytes, err, errlen)
          : NULL;
    if (!area) {
        if (!c)
            snprintf(err, errlen, "no memory for a new communicator");
        free(c);
        return -1;
    }
    state_init(c, comm, index, area);
    comm->coll = c;
    return 0;
}

int shmpi_coll_attach(MPI_Comm comm, uint32_t index)
{
    /* open_why is written only on failure (and emptied by the
       caller that reports it, comm/comm_create.c): under
       MPI_THREAD_MULTIPLE threads attach areas at once */
    comm->coll = NULL;
    if (index == SHMPI_COLL_NO_AREA)
        return MPI_SUCCESS;
    if (open_area(comm, index, shmpi_proc.open_why,
                  sizeof shmpi_proc.open_why) != 0) {
        shmpi_coll_area_drop(index);
        return MPI_ERR_NO_MEM;
    }
    return MPI_SUCCESS;
}

void shmpi_coll_detach(MPI_Comm comm)
{
    struct shmpi_coll *c = comm->coll;
    if (!c)
        return;
    if (c->index != 0)
        release(c->index, c->area);
    munmap(c->area, shmpi_proc.arena->coll_area_bytes);
    free(c->scratch);
    free(c);
    comm->coll = NULL;
}

int shmpi_coll_init(MPI_Comm world)
{
    struct shmpi_coll_tune *tune = &shmpi_proc.coll_tune;
    const struct shmpi_tun_set *tun = &shmpi_proc.tun;
    shmpi_nbc_register_kind();
    shmpi_coll_pallreduce_register();
    tune->fold_max = tun->value[SHMPI_TUN_COLL_FOLD_MAX];
    tune->counter_barrier =
        tun->value[SHMPI_TUN_COLL_BARRIER] == SHMPI_TUN_BARRIER_COUNTER;
    world->coll = NULL;
    if (shmpi_core_checking())
        shmpi_coll_order_open();
    if (world->size < 2 || shmpi_proc.arena->coll_areas == 0)
        return 0;
    /* like any communicator's (shmpi_coll_detach frees it); not a
       fallback to messages without it: the other ranks use the area */
    return open_area(world, 0, shmpi_proc.open_why,
                     sizeof shmpi_proc.open_why);
}
