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
 * members.  Each member reserves its own data slot the first time it has
 * data to put there (shmpi_coll_reserve), so a communicator that only
 * synchronizes, or moves 16 bytes at a time, costs a page, not a slot per
 * member; a /dev/shm too full for that slot makes that collective fail
 * with MPI_ERR_NO_MEM, before it starts.  The area's index then
 * travels to the members with the context, in the message that creates
 * the communicator (comm/comm_create.c), whose ring orders these stores
 * before the members' first use.  Each member drops one reference when
 * its communicator object goes (MPI_Comm_free, or later if something
 * still uses it); the last one (acq_rel decrement: every member's use
 * happens before it) punches the pages out and clears the bit (release).
 * A fresh area is all zeros, which is exactly "no collective yet".
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
 * shmpi_proc.nbc_active (sched.c).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "coll/sched.h"

static unsigned char *area_at(uint32_t index)
{
    struct shmpi_arena_header *a = shmpi_proc.arena;
    return (unsigned char *)a + a->coll_offset +
           (uint64_t)index * a->coll_area_bytes;
}

static struct shmpi_coll_head *head_of(uint32_t index)
{
    return (struct shmpi_coll_head *)area_at(index);
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
    if (members < 2)
        return SHMPI_COLL_NO_AREA; /* a process alone needs no area */
    uint32_t index = take_bit(a);
    if (index == SHMPI_COLL_NO_AREA)
        return index;
    off_t at = (off_t)(area_at(index) - (unsigned char *)a);
    if (posix_fallocate(shmpi_proc.arena_fd, at,
                        (off_t)a->coll_data_offset) != 0) {
        give_bit(a, index);
        return SHMPI_COLL_NO_AREA;
    }
    atomic_store_explicit(&head_of(index)->refs, (uint32_t)members,
                          memory_order_relaxed);
    return index;
}

int shmpi_coll_reserve(struct shmpi_coll *c)
{
    if (c->slot_reserved)
        return MPI_SUCCESS;
    unsigned char *slot = shmpi_coll_half(c, c->rank, 0);
    if (posix_fallocate(shmpi_proc.arena_fd,
                        (off_t)(slot - (unsigned char *)shmpi_proc.arena),
                        (off_t)c->slot_bytes) != 0)
        return MPI_ERR_NO_MEM;
    c->slot_reserved = 1;
    return MPI_SUCCESS;
}

void shmpi_coll_area_drop(uint32_t index)
{
    struct shmpi_arena_header *a = shmpi_proc.arena;
    if (index == SHMPI_COLL_NO_AREA || index == 0)
        return;
    if (atomic_fetch_sub_explicit(&head_of(index)->refs, 1,
                                  memory_order_acq_rel) != 1)
        return;
    off_t at = (off_t)(area_at(index) - (unsigned char *)a);
    /* the memory goes back; the pages read as zeros for the next owner.
       Should the punch fail, the area is still all ours: zero it. */
    if (fallocate(shmpi_proc.arena_fd,
                  FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, at,
                  (off_t)a->coll_area_bytes) != 0)
        memset(area_at(index), 0, a->coll_area_bytes);
    give_bit(a, index);
}

static int ceil_log2(int n)
{
    int k = 0;
    while ((1 << k) < n)
        k++;
    return k;
}

static void state_init(struct shmpi_coll *c, MPI_Comm comm, uint32_t index)
{
    struct shmpi_arena_header *a = shmpi_proc.arena;
    *c = (struct shmpi_coll){
        .area = area_at(index), .index = index, .rank = comm->rank,
        .size = comm->size, .world = comm->world_ranks,
        .slot_bytes = a->coll_slot_bytes, .half = a->coll_slot_bytes / 2,
        .barrier_rounds = ceil_log2(comm->size)};
    c->slots = c->area + a->coll_data_offset;
}

int shmpi_coll_attach(MPI_Comm comm, uint32_t index)
{
    comm->coll = NULL;
    if (index == SHMPI_COLL_NO_AREA)
        return MPI_SUCCESS;
    struct shmpi_coll *c = malloc(sizeof *c);
    if (!c) {
        shmpi_coll_area_drop(index);
        return MPI_ERR_NO_MEM;
    }
    state_init(c, comm, index);
    comm->coll = c;
    return MPI_SUCCESS;
}

void shmpi_coll_detach(MPI_Comm comm)
{
    struct shmpi_coll *c = comm->coll;
    if (!c)
        return;
    shmpi_coll_area_drop(c->index);
    free(c->scratch);
    free(c);
    comm->coll = NULL;
}

int shmpi_coll_init(MPI_Comm world)
{
    struct shmpi_coll_tune *tune = &shmpi_proc.coll_tune;
    const struct shmpi_tun_set *tun = &shmpi_proc.tun;
    shmpi_nbc_register_kind();
    tune->fold_max = tun->value[SHMPI_TUN_COLL_FOLD_MAX];
    tune->counter_barrier =
        tun->value[SHMPI_TUN_COLL_BARRIER] == SHMPI_TUN_BARRIER_COUNTER;
    world->coll = NULL;
    if (world->size < 2 || shmpi_proc.arena->coll_areas == 0)
        return 0;
    /* like any communicator's (shmpi_coll_detach frees it); not a
       fallback to messages without it: the other ranks use the area */
    struct shmpi_coll *c = malloc(sizeof *c);
    if (!c)
        return -1;
    state_init(c, world, 0);
    world->coll = c;
    return 0;
}
