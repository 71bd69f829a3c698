/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * conn.c - the channels between ranks: how a record gets from one rank
 * to another, and when a pair moves from the mailbox to a ring of its
 * own.
 *
 * Every rank has, in the arena, a mailbox (queues/mpsc.h: one queue any
 * rank pushes into, one line the owner polls) and an outbox (queues/
 * outbox.h: the area its records to cold peers are taken from).  A pair
 * starts cold: S sends D a record by taking it from S's outbox and
 * pushing it into D's mailbox.  Shared memory then grows with the number
 * of ranks, not of pairs, and D's poll is one load however many ranks
 * talk to it.  (The per-pair rings this replaces cost 60 MiB at np=16
 * and 1 GiB at np=64 for an all-pairs exchange, np^2 in all.)
 *
 * Hot rings.  Once S and D have exchanged SHMPI_FAST_AFTER records
 * (default 256) through the mailboxes - both ways count, so that a
 * ping-pong turns hot as soon as a stream does - S tries to claim one of D's SHMPI_FAST_RINGS
 * ring slots (default 8): a compare-and-swap of the slot's owner word
 * from 0 to S + 1 (acq_rel: the winner alone writes the slot's ring),
 * then posix_fallocate of the ring's pages (a full /dev/shm, or one that
 * the ring would leave less than a quarter free: the slot is given back,
 * or not taken, and the pair stays cold; no error).  The ring is the
 * per-pair SPSC ring of queues/ring.c, unchanged: one release store per
 * record, the short way of fastpath.c.  A pair keeps a slot until the
 * job ends, so D never polls more than SHMPI_FAST_RINGS rings, and a
 * pair that finds every slot taken stays on the mailbox.
 *
 * Sized rings.  A slot spans twice SHMPI_RING_KB of the arena's address
 * space, two halves, but only the first `bytes` of one half are
 * reserved: the smallest ring, from SHMPI_RING_MIN_KB (16 KiB) up by
 * doubling, that takes the largest envelope record S sent while cold
 * (an 8-byte message: the minimum; a 4 KiB one: 32 KiB).  CONNECT
 * carries the slot and the size.  While the ring is smaller than
 * SHMPI_RING_KB, a message over what it takes (a quarter of it, less
 * the headers) goes as RTS and its DATA in chunks it takes (send.c:
 * peer->eager_limit, peer->chunk), and S keeps room for one more
 * record behind each one (ring_reserve) so that it can always leave.
 * The pair moves to a larger ring in the slot's other half when the
 * ring was too small SHMPI_RING_GROW_AFTER times (default 8: found full
 * by a send - once per time S got stuck, not per poll of its wait - or
 * passed over by a message over its eager limit; the new ring is twice
 * as large, or as large as that message needs), or at once when more
 * sends wait for it than it holds (peer->waiting: a burst; the new ring
 * holds them).  S writes CONNECT(slot, bytes, half) as the last record
 * of the old ring and the new ring only from then on; D switches when
 * it reads that CONNECT (in ring order, after every earlier record),
 * punches the old half's pages out of the file and says in the slot's
 * owner word which half it reads (leave_half); S moves again only after
 * that (move_ring, where the memory ordering is argued).  A pair holds
 * the pages of one ring, two for the moment of a move.  Rings only
 * grow: releasing an idle one would need D to tell S (S alone writes
 * it, and may be writing), S's switch back to the mailbox, and D to
 * hold S's mailbox records until it has read the ring to its end, to
 * keep the order - not built.
 *
 * The switch keeps MPI's order per pair (3.5, non-overtaking) without a
 * sequence number: S switches only when nothing waits for D (no queued
 * envelope, stream or control), sends CONNECT(slot) as the last record
 * through D's mailbox, and from then on uses the ring only.  D starts
 * polling the ring when it takes CONNECT off its mailbox, after every
 * record S sent before it (the mailbox is FIFO per producer); the ring's
 * first record is after them all.  The ring's pages read as zeros until
 * S writes, which is what the ring's consumer expects; the mailbox's
 * push (a release store) orders S's claim before D's first read.
 *
 * Lanes.  All of the above is per lane (pt2pt.h): a rank has
 * SHMPI_LANES endpoints, each with its post block (mailbox, outbox flag,
 * slot owners), its outbox and its SHMPI_FAST_RINGS ring slots, in the
 * arena at (rank, lane) (shm_arena/arena.h), and a pair's channel is
 * per (pair, lane): S's lane k writes to D's lane k only, a message
 * going in the lane of its communicator (shmpi_p2p_lane_of).  A slot's
 * owner word names the sender; the lane is whose slots they are.  So
 * the argument of the switch below holds per (pair, lane) as it stands:
 * one lane's CONNECT is the last of that lane's mailbox records from S,
 * and the order MPI keeps is per communicator, hence per lane.  Each
 * (rank, lane) has a bell in its post block: a sender rings its lane's
 * bell of the receiver, which wakes the receiver's threads that wait
 * for that lane (core/wait.c), not every thread of the rank.
 *
 * Memory a job uses for point-to-point, at most: per (rank, lane used)
 * a post block (mailbox, outbox flag, bell, slot owners: 256 + 4 *
 * SHMPI_FAST_RINGS bytes, rounded to 64; every lane's is reserved at
 * launch) and its outbox's high-water mark (at most SHMPI_OUTBOX_KB,
 * reserved 64 KiB at a time), plus np x L x SHMPI_FAST_RINGS x
 * SHMPI_RING_KB for the hot rings, L the lanes the job's communicators
 * use, only as pairs get hot; a hot pair holds the ring its traffic
 * needs, from SHMPI_RING_MIN_KB to SHMPI_RING_KB (sized rings, above).
 * A program of one communicator uses one lane and the memory it did
 * before lanes; the address space each rank maps for rings and outboxes
 * grows with the lanes it uses (lazy lanes, below): per lane np x
 * (SHMPI_OUTBOX_KB + 2 x SHMPI_FAST_RINGS x SHMPI_RING_KB) (arena.c
 * halves the pieces past 64 GiB).
 *
 * Sized rings, measured (2026-11-29 03:12 UTC, SHMPI_FAST_AFTER=16
 * MEMORY_ONLY=shmpi MEMORY_NP="16 64" perf/run-perf memory, every pair
 * hot): peak /dev/shm 18.1 -> 4.1 MiB at np=16, 72.3 -> 16.3 MiB at
 * np=64 (each pair of that exchange sends small messages while cold).
 *
 * Measured before sized rings (2026-11-29, a loaded 2-CPU VM; an all-pairs exchange of K
 * messages per ordered pair, then the arena's allocated blocks, st_blocks
 * of the /dev/shm file rank 0 holds, ./mpirun -np N allpairs K BYTES):
 *   np=16, K=1:      1.3 MiB (per-pair rings before: 60 MiB)
 *   np=16, K=300:   34 MiB  (16 x 8 hot rings of 256 KiB; 10 MiB with
 *                            SHMPI_RING_KB=64)
 *   np=64, K=1:      5.3 MiB (before: 1009 MiB)
 *   np=64, K=300:  137 MiB  (41 MiB with SHMPI_RING_KB=64, 9.3 MiB with
 *                            SHMPI_FAST_RINGS=0)
 * The defaults (SHMPI_FAST_AFTER 256, SHMPI_RING_KB 128) are set by the
 * all-pairs exchange of perf/memory.sh (100 x 8 B and one 64 KiB message
 * per ordered pair, about 210 records each way counted together): with
 * 128 and 256 KiB every pair turned hot and the job took 36 MiB at np=16
 * and 145 MiB at np=64; with 256 and 128 none does and it took 4.3 and
 * 17 MiB (Open MPI: 3.3 and 114 MiB), 2026-11-29, MEMORY_ONLY=shmpi
 * MEMORY_NP="16 64" perf/run-perf memory.  A 128 KiB ring still holds a
 * 16 KiB eager message in a quarter of it.
 * A cold pair pays for the mailbox: an 8-byte ping-pong with every pair
 * cold (SHMPI_FAST_RINGS=0, perf/pt2pt -t lat -s 8) took 1.0-2.1 us
 * half round trip against 0.3 us on a hot ring (the exchange on `last`,
 * the receiver's fence per record, the general path of request and
 * progress); SHMPI_FAST_AFTER bounds how long a busy pair pays it.
 *
 * Threads: the mailbox takes several producers as it is; a lane's
 * outbox and its peers' channel state are its holder's (lane.h), so
 * reserve..commit and the switch to a ring are made under the lane.
 *
 * shmpi_p2p_init (MPI_Init) sets up this rank's engine and gives the
 * wait loop its stall hook, the pull of large messages (core/hooks.h).
 *
 * Tunables (core/tunables.c, read at MPI_Init; one value for the whole
 * job):
 *   SHMPI_EAGER_LIMIT  largest message sent eagerly, data included in the
 *                      record (default 16384 bytes)
 *   SHMPI_CHUNK        bytes per DATA record of a large message (default
 *                      32768); both are capped to what a record of either
 *                      channel holds: a quarter of the ring and of the
 *                      outbox, less the headers
 *   SHMPI_FAST_AFTER   records through the mailboxes before a pair tries
 *                      for a hot ring (default 256)
 *   SHMPI_RING_MIN_KB  smallest hot ring (default 16 KiB)
 *   SHMPI_RING_GROW_AFTER  times a hot ring is too small before it is
 *                      doubled (default 8)
 *   SHMPI_PULL_LIMIT_MB  largest message a stalled wait takes in before
 *                      its receive is posted past the bound below, one
 *                      at a time (pull.c; default 1024)
 *   SHMPI_UNEXPECTED_MB  memory held for messages before their receive;
 *                      past it senders send RTS and wait (flow.c;
 *                      default 16; each rank's own)
 * and, shaping the arena (the launcher's): SHMPI_RING_KB, SHMPI_FAST_RINGS,
 * SHMPI_OUTBOX_KB.
 *
 * State: this rank's point-to-point state is shmpi_proc.pt2pt (struct
 * shmpi_pt2pt, pt2pt.h), allocated here at MPI_Init and kept until the
 * process exits: MPI_Finalize tears nothing of pt2pt down (its rings stay
 * mapped with the arena), and a program may still call what is allowed
 * after it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

#include "core/check.h"
#include "core/error.h"
#include "core/hooks.h"
#include "core/lock.h"
#include "core/proc.h"
#include "core/wait.h"
#include "pt2pt/progress.h"
#include "pt2pt/pt2pt.h"

_Static_assert(sizeof(struct shmpi_mpsc) == SHMPI_POST_MAILBOX_BYTES &&
                   sizeof(struct shmpi_outbox_flag) == SHMPI_POST_FLAG_BYTES,
               "the post block holds a mailbox and an outbox flag, then "
               "the lane's bell");

/* The mailbox of rank's lane. */
static struct shmpi_mpsc *mailbox_of(int rank, uint32_t lane)
{
    return (struct shmpi_mpsc *)shmpi_arena_post(shmpi_proc.arena, rank,
                                                 lane);
}

struct shmpi_outbox_flag *shmpi_p2p_outbox_flag(int rank, uint32_t lane)
{
    return (struct shmpi_outbox_flag *)(shmpi_arena_post(shmpi_proc.arena,
                                                         rank, lane) +
                                        SHMPI_POST_MAILBOX_BYTES);
}

/* The owner word of ring slot `slot` of rank's lane: the sender that
   holds it (+ 1); the lane is the lane whose slots they are. */
static _Atomic uint32_t *slot_owner(int rank, uint32_t lane, uint32_t slot)
{
    return (_Atomic uint32_t *)(shmpi_arena_post(shmpi_proc.arena, rank,
                                                 lane) +
                                SHMPI_POST_SLOTS_AT) +
           slot;
}

/* Set in a slot's owner word while the receiver reads the ring in the
   slot's second half (sized rings, at the top). */
#define OWNER_HALF 0x80000000u

/* A slot spans twice SHMPI_RING_KB: a ring in either half.  Slots are
   per (receiver, lane), in the lane's region, which this process has
   mapped: it sends in the lane (sender) or polls it (receiver). */
static struct shmpi_ring *ring_at(int dst, uint32_t lane, uint32_t slot,
                                  uint32_t half)
{
    return (struct shmpi_ring *)(shmpi_proc.pt2pt->lanes[lane].base +
                                 shmpi_arena_ring_offset(shmpi_proc.arena,
                                                         dst, lane, slot,
                                                         half));
}

static off_t file_offset(int dst, uint32_t lane, uint32_t slot,
                         uint32_t half)
{
    return (off_t)shmpi_arena_ring_offset(shmpi_proc.arena, dst, lane, slot,
                                          half);
}

/* The largest record body both channels take. */
static uint64_t max_body(const struct shmpi_arena_header *a)
{
    uint64_t m = shmpi_outbox_max_body(a->outbox_bytes);
    if (a->fast_rings && shmpi_ring_max_body(a->ring_bytes) < m)
        m = shmpi_ring_max_body(a->ring_bytes);
    return m;
}

/* Lane k's ends of the channels: the outbox and mailbox of (this rank,
   k); where it starts looking in the claim table (claim.c). */
static int lane_init(const struct shmpi_pt2pt *pt, struct shmpi_lane *l,
                     uint32_t k)
{
    struct shmpi_proc *p = &shmpi_proc;
    struct shmpi_arena_header *a = p->arena;
    int n = p->size;
    l->index = k;
    l->claim_cursor = k * (SHMPI_CLAIMS / (pt->lane_mask + 1));
    l->peers = calloc((size_t)n, sizeof *l->peers);
    l->hot = calloc(a->fast_rings + 1, sizeof *l->hot);
    l->backlog = calloc((size_t)n, sizeof *l->backlog);
    l->unexpected = calloc((size_t)n, sizeof *l->unexpected);
    l->lock.watch = calloc(a->fast_rings + 1, sizeof *l->lock.watch);
    if (!l->peers || !l->hot || !l->backlog || !l->unexpected ||
        !l->lock.watch)
        return -1;
    for (int i = 0; i < n; i++) {
        l->peers[i].lane = l;
        l->peers[i].rank = i;
        l->peers[i].bell = shmpi_arena_lane_bell(a, i, k);
        l->peers[i].eager_limit = pt->eager_limit;
        l->peers[i].chunk = pt->chunk;
    }
    /* lane 0's region is in the view MPI_Init mapped, where the file's
       offsets count from the arena's start; the others get their base
       when mapped (shmpi_p2p_lane_map).  The outbox and the mailbox
       need none before: nothing is reserved or popped until then. */
    l->base = k == 0 ? (unsigned char *)a : NULL;
    if (n > 1) {
        shmpi_outbox_tx_init(&l->outbox, l->base,
                             shmpi_arena_outbox_offset(a, p->rank, k),
                             a->outbox_bytes,
                             shmpi_p2p_outbox_flag(p->rank, k), p->rank,
                             p->arena_fd);
        shmpi_mpsc_rx_init(&l->mailbox, l->base, mailbox_of(p->rank, k));
    }
    shmpi_p2p_lane_watch_publish(l); /* lane.c: what a poll reads first */
    shmpi_p2p_lane_lock_init(&l->lock, k);
    return 0;
}

int shmpi_p2p_init(void)
{
    struct shmpi_proc *p = &shmpi_proc;
    struct shmpi_arena_header *a = p->arena;
    /* lanes have lines of their own: aligned, not calloc's 16 bytes */
    size_t bytes = sizeof(struct shmpi_pt2pt) +
                   a->lanes * sizeof(struct shmpi_lane);
    struct shmpi_pt2pt *pt = aligned_alloc(
        SHMPI_CACHELINE, (bytes + SHMPI_CACHELINE - 1) & ~(size_t)
                                                            (SHMPI_CACHELINE - 1));
    if (!pt)
        return -1;
    memset(pt, 0, bytes);
    pt->lane_mask = a->lanes - 1;
    int n = p->size;
    uint64_t body = n > 1 ? max_body(a) - sizeof(struct shmpi_msg) : 0;
    const struct shmpi_tun_set *tun = &p->tun;
    pt->eager_limit = tun->value[SHMPI_TUN_EAGER_LIMIT];
    pt->chunk = tun->value[SHMPI_TUN_CHUNK];
    pt->pull_limit = tun->value[SHMPI_TUN_PULL_LIMIT_MB]; /* in bytes */
    pt->fast_after = tun->value[SHMPI_TUN_FAST_AFTER];
    pt->held_limit = tun->value[SHMPI_TUN_UNEXPECTED_MB]; /* in bytes */
    if (pt->eager_limit > body)
        pt->eager_limit = body;
    if (pt->chunk > body || pt->chunk == 0)
        pt->chunk = body;
    pt->ring_min = tun->value[SHMPI_TUN_RING_MIN_KB]; /* in bytes */
    pt->grow_after = (uint32_t)tun->value[SHMPI_TUN_RING_GROW_AFTER];
    pt->sent = (struct shmpi_request){
        .magic = SHMPI_MAGIC_REQUEST, .kind = SHMPI_REQ_SEND, .on_stack = 1,
        .active = 1, .complete = 1, .lane = &pt->lanes[0]};
    shmpi_p2p_status_empty(&pt->sent.status);
    for (uint32_t k = 0; k < a->lanes; k++)
        if (lane_init(pt, &pt->lanes[k], k) != 0)
            return -1;
    shmpi_proc.pt2pt = pt;
    /* lane 0 is mapped with the view; MPI_COMM_WORLD's context is 0 */
    atomic_store_explicit(&pt->lanes_used, 1u, memory_order_relaxed);
    shmpi_p2p_comm_lane_set(MPI_COMM_WORLD);
    /* a message to oneself goes to its receive directly (recv.c): no
       channel to progress or map, so MPI_COMM_SELF's lane is not marked
       used and a program of one communicator maps and turns one lane */
    MPI_COMM_SELF->lane = shmpi_p2p_lane_of(MPI_COMM_SELF->context);
    shmpi_core_stall_hook_set(shmpi_p2p_pull_stalled);
    shmpi_core_turn_hook_set(shmpi_p2p_progress); /* core/wait.c */
    return 0;
}

/*
 * Lazy lanes.  Lane 0's region (every rank's outbox of lane 0, every
 * receiver's ring slots of lane 0) is mapped with the view at MPI_Init;
 * lane k's region, one range of the file (shm_arena/arena.h), only when
 * the first communicator of lane k is made in this process.  So a rank
 * maps the lanes it uses: at np=64 a rank mapped 151 MiB with one lane
 * in all and 559 MiB with four (VmPeak, 2026-11-29, MEMORY_ONLY=shmpi
 * MEMORY_NP="16 64" perf/run-perf memory).
 *
 * Why no process touches lane k's region before it mapped it.  Who
 * touches lane k's memory of rank r: (1) r itself as a sender, in its
 * outbox (reserve, post) and in the rings it claimed in other ranks'
 * lane k; (2) any sender S that pushes into r's lane-k mailbox: it
 * writes the `next` of the node before its own, which lies in some
 * rank's lane-k outbox (or is the stub, in the fixed part); (3) r as
 * the receiver, reading the records of its lane-k mailbox (in its
 * senders' lane-k outboxes: their bodies and `done`) and its lane-k
 * rings, and punching a ring it left.  (1) and (2) send in lane k: a
 * message goes in the lane of its communicator, so the sender has a
 * communicator of lane k, whose making mapped the lane here before.
 * (3) happens only in progress_lane (progress.c), which turns only the
 * lanes of lanes_used, set below once the mapping is done; records that
 * arrive before it - a member that finished MPI_Comm_dup sends before
 * this one did - wait in the mailbox and the rings (whose words are in
 * the post block, in the fixed part), for the first turn after the
 * mapping.  MPI_COMM_SELF's lane is never mapped for it: a message to
 * oneself goes to its receive directly (recv.c).  Every process's
 * regions of lane k hold all ranks' pieces of that lane, so (2)'s write
 * into a third rank's outbox lands in what the writer mapped.
 *
 * Threads: mapping is done once, under map_lock (a mutex under
 * MPI_THREAD_MULTIPLE, nothing below it): two threads that make
 * communicators of the same lane at once map it once, the second finds
 * its bit set under the lock.  The lane's own lock (lane.h) is not
 * taken: an idup finishes inside a progress hook that holds another
 * lane, and two lanes are never held at once.  It is not needed: until
 * the bit is set no thread reads what is written here (the base of the
 * lane, of its outbox and of its mailbox), by the argument above; the
 * bit is set with release after them, and progress and the check here
 * load it with acquire.
 */
static __attribute__((noinline, cold)) int lane_map_cold(struct shmpi_lane *l)
{
    struct shmpi_proc *p = &shmpi_proc;
    struct shmpi_pt2pt *pt = p->pt2pt;
    struct shmpi_arena_header *a = p->arena;
    uint32_t bit = 1u << l->index;
    int rc = MPI_SUCCESS;
    shmpi_core_lock(&pt->map_lock);
    if (atomic_load_explicit(&pt->lanes_used, memory_order_relaxed) & bit)
        goto out; /* another thread mapped it while we waited */
    if (a->lane_bytes) { /* a job of one has no outbox nor ring */
        char what[64];
        snprintf(what, sizeof what, "point-to-point lane %u", l->index);
        uint64_t at = shmpi_arena_lane_offset(a, l->index);
        unsigned char *m =
            shmpi_arena_map(p->arena_fd, at, a->lane_bytes, what,
                            p->open_why, sizeof p->open_why);
        if (!m) {
            rc = MPI_ERR_NO_MEM;
            goto out;
        }
        /* offsets in the lane count from the file's start (mpsc.h): the
           base is where offset 0 would be; an integer, not a pointer
           outside any object, until an offset of the lane is added */
        l->base = (unsigned char *)((uintptr_t)m - (uintptr_t)at);
        l->outbox.base = l->base;
        l->mailbox.base = l->base;
    }
    atomic_fetch_or_explicit(&pt->lanes_used, bit, memory_order_release);
out:
    shmpi_core_unlock(&pt->map_lock);
    return rc;
}

int shmpi_p2p_lane_map(uint32_t context)
{
    struct shmpi_lane *l = shmpi_p2p_lane_of(context);
    if (atomic_load_explicit(&shmpi_proc.pt2pt->lanes_used,
                             memory_order_acquire) &
        (1u << l->index))
        return MPI_SUCCESS;
    return lane_map_cold(l);
}

void shmpi_p2p_comm_lane_set(MPI_Comm c)
{
    c->lane = shmpi_p2p_lane_of(c->context);
}


/* A hot ring only saves time, and it keeps its pages for the rest of
   the job: take one only while a quarter of /dev/shm stays free after
   it, for what the job cannot do without (outboxes, collective slots,
   tables).  With every pair hot (SHMPI_FAST_AFTER=16) the all-pairs job
   of perf/memory.sh at np=64 in a 64 MiB /dev/shm took it all for rings
   and a later outbox step failed with MPI_ERR_NO_MEM (2026-11-29). */
static int room_for_ring(int fd, uint64_t bytes)
{
    struct statvfs v;
    if (fstatvfs(fd, &v) != 0)
        return 1; /* cannot tell: fallocate decides */
    uint64_t total = (uint64_t)v.f_blocks * v.f_frsize;
    uint64_t avail = (uint64_t)v.f_bavail * v.f_frsize;
    return avail >= bytes + total / 4;
}

/* Take one of dst's free slots and reserve the first `bytes` of its
   pages: the slot, or -1 (none free, or no room: the pair stays as it
   is). */
static int claim_slot(int dst, uint32_t lane, uint64_t bytes)
{
    struct shmpi_proc *p = &shmpi_proc;
    struct shmpi_arena_header *a = p->arena;
    if (!room_for_ring(p->arena_fd, bytes))
        return -1;
    for (uint32_t i = 0; i < a->fast_rings; i++) {
        uint32_t expect = 0;
        if (!atomic_compare_exchange_strong_explicit(
                slot_owner(dst, lane, i), &expect, (uint32_t)p->rank + 1,
                memory_order_acq_rel, memory_order_relaxed))
            continue;
        if (posix_fallocate(p->arena_fd, file_offset(dst, lane, i, 0),
                            (off_t)bytes) == 0)
            return (int)i;
        atomic_store_explicit(slot_owner(dst, lane, i), 0,
                              memory_order_release);
        return -1;
    }
    return -1;
}

/* The smallest ring, from `from` bytes up by doubling, whose records
   take a body of len bytes and whose data holds `hold` bytes; at most
   SHMPI_RING_KB. */
static uint64_t ring_bytes_for(uint64_t len, uint64_t hold, uint64_t from)
{
    uint64_t most = shmpi_proc.arena->ring_bytes;
    uint64_t b = from < most ? from : most;
    while (b < most &&
           (shmpi_ring_max_body(b) < len || b - SHMPI_RING_HEADER < hold))
        b *= 2;
    return b < most ? b : most;
}

/* Write into the ring of `bytes` in dst's slot from now on; eager
   messages and chunks the ring cannot take go as RTS and smaller
   chunks (send.c), the job's limits staying the ceiling. */
static void use_ring(struct shmpi_peer *peer, int dst, uint32_t slot,
                     uint32_t half, uint64_t bytes)
{
    struct shmpi_pt2pt *pt = shmpi_proc.pt2pt;
    uint64_t body = shmpi_ring_max_body(bytes) - sizeof(struct shmpi_msg);
    shmpi_ring_tx_init(&peer->tx, ring_at(dst, peer->lane->index, slot, half),
                       bytes);
    peer->tx_slot = slot;
    peer->tx_half = half;
    peer->eager_limit = pt->eager_limit < body ? pt->eager_limit : body;
    peer->chunk = pt->chunk < body ? pt->chunk : body;
    peer->fulls = 0;
    peer->full_head = 0; /* a ring found full has head > 0 */
    peer->retry_head = 0;
}

/* The pair is busy enough and nothing waits for it: move it to a ring,
   CONNECT being its last record through the mailbox (see the top). */
static void try_hot(struct shmpi_peer *peer, int dst)
{
    struct shmpi_pt2pt *pt = shmpi_proc.pt2pt;
    struct shmpi_outbox_tx *ob = &peer->lane->outbox;
    int err;
    struct shmpi_msg *m = shmpi_outbox_reserve(ob, sizeof *m, &err);
    if (!m)
        return; /* outbox full now: another time */
    uint64_t bytes = ring_bytes_for(peer->max_record, 0, pt->ring_min);
    int slot = claim_slot(dst, peer->lane->index, bytes);
    if (slot < 0) {
        peer->stays_cold = 1; /* the record is not posted: space unused */
        return;
    }
    *m = (struct shmpi_msg){.type = SHMPI_MSG_CONNECT, .nbytes = bytes,
                            .offset = (uint64_t)slot, .cookie = 0};
    shmpi_outbox_post(ob, m, mailbox_of(dst, peer->lane->index));
    use_ring(peer, dst, (uint32_t)slot, 0, bytes);
}

/* Move a hot pair to a ring of `bytes` in the other half of its slot:
   CONNECT(slot, bytes, half) is the last record of the old ring, and
   every later one goes into the new ring.  D reads the old ring in
   order up to CONNECT - it takes the seq of CONNECT with acquire after
   those of every earlier record, each stored with release after its
   body - and only then the new ring, whose records carry their own
   release/acquire seqs.  So no message overtakes another across the
   move.  The new half must be D's no longer: D, when it switched to the
   half we write now, punched the other one's pages out (they read as
   zeros again, as an empty ring must) and then stored the half it reads
   into the owner word with release; our acquire load of that word
   orders the punch before our fallocate and writes.  Our fallocate
   comes before the release store of CONNECT's seq, so D finds the pages
   there.  1 if moved; else nothing is written: -1 if the old ring has
   no room for CONNECT or D still reads the other half (try again when
   head has moved), 0 if no pages can be had. */
static int move_ring(struct shmpi_peer *peer, int dst, uint64_t bytes)
{
    uint32_t lane = peer->lane->index;
    uint32_t owner = atomic_load_explicit(
        slot_owner(dst, lane, peer->tx_slot), memory_order_acquire);
    uint32_t other = !peer->tx_half;
    if (!(owner & OWNER_HALF) != !peer->tx_half)
        return -1; /* D has not left the other half yet */
    if (!room_for_ring(shmpi_proc.arena_fd, bytes))
        return 0;
    /* a reserve not committed leaves nothing D reads: the record's seq
       is stored only by commit */
    struct shmpi_msg *m = shmpi_ring_reserve(&peer->tx, sizeof *m);
    if (!m)
        return -1;
    if (posix_fallocate(shmpi_proc.arena_fd,
                        file_offset(dst, lane, peer->tx_slot, other),
                        (off_t)bytes) != 0)
        return 0;
    *m = (struct shmpi_msg){.type = SHMPI_MSG_CONNECT, .nbytes = bytes,
                            .offset = peer->tx_slot, .cookie = other};
    shmpi_ring_commit(&peer->tx, m);
    use_ring(peer, dst, peer->tx_slot, other, bytes);
    shmpi_p2p_ring(peer);
    return 1;
}

/* The hot ring was too small once more: a record of len bytes found it
   full, or (full 0) a message over its eager limit went as RTS.  After
   SHMPI_RING_GROW_AFTER such times since it got its size, the pair moves
   to a ring twice as large, or as large as a record of len needs.  A
   full ring counts once per time the sender got stuck (tx.head moved
   since the last), not once per poll of a wait. */
static void ring_too_small(struct shmpi_peer *peer, uint64_t len, int full)
{
    struct shmpi_pt2pt *pt = shmpi_proc.pt2pt;
    uint64_t bytes = peer->tx.size + SHMPI_RING_HEADER;
    if (bytes >= shmpi_proc.arena->ring_bytes ||
        (full && peer->tx.head == peer->full_head))
        return;
    if (full)
        peer->full_head = peer->tx.head;
    if (++peer->fulls < pt->grow_after)
        return;
    if (move_ring(peer, peer->rank, ring_bytes_for(len, 0, 2 * bytes)) <
        1)
        peer->fulls = 0; /* not now: try again grow_after times on */
}

/* More sends wait for the ring than it holds (a burst larger than the
   ring, peer->waiting): move to a ring that holds them at once, rather
   than after GROW_AFTER full rings.  Tried again once head has moved
   when the move had to wait; a ring's worth of records later when no
   pages could be had (room_for_ring's statvfs is not paid per
   record). */
static void ring_backlog(struct shmpi_peer *peer)
{
    uint64_t bytes = peer->tx.size + SHMPI_RING_HEADER;
    if (bytes >= shmpi_proc.arena->ring_bytes ||
        peer->tx.head < peer->retry_head ||
        (peer->tx.head == peer->retry_head && peer->tx.head))
        return;
    int moved = move_ring(peer, peer->rank,
                          ring_bytes_for(0, peer->waiting, 2 * bytes));
    if (moved == 0)
        peer->retry_head = peer->tx.head + peer->tx.size;
    else if (moved < 0)
        peer->retry_head = peer->tx.head;
}

void shmpi_p2p_ring_fit(struct shmpi_peer *peer, uint64_t nbytes)
{
    if (peer->tx.ring)
        ring_too_small(peer, sizeof(struct shmpi_msg) + nbytes, 0);
}

int shmpi_p2p_peer_connect_cold(struct shmpi_peer *peer)
{
    struct shmpi_pt2pt *pt = shmpi_proc.pt2pt;
    int dst = peer->rank;
    /* never hot in the check mode: MPI_Isend and the others then always
       make a request, which keeps the buffer's hash (pt2pt/bufcheck.h,
       nonblocking.c) - tested last, when the pair would turn hot */
    if (peer->cold_records >= pt->fast_after && !peer->stays_cold &&
        shmpi_proc.arena->fast_rings && !peer->envelopes.head &&
        !peer->streams.head && !peer->ctl_head && !shmpi_core_checking()) {
        try_hot(peer, dst);
        if (peer->tx.ring)
            return 0;
    }
    /* pages for the next record of any size: reserve cannot then fail */
    return shmpi_outbox_prepare(&peer->lane->outbox,
                                max_body(shmpi_proc.arena));
}

/* A record of len bytes in the pair's ring.  While the ring may still
   be left for a larger one, room for CONNECT stays free behind the
   record: a ring full of records no larger than CONNECT could never be
   left otherwise.  (The fast send reserves without it: a move then waits
   until the receiver frees room.) */
static void *ring_reserve(struct shmpi_peer *peer, size_t len)
{
    if (peer->tx.size + SHMPI_RING_HEADER >= shmpi_proc.arena->ring_bytes)
        return shmpi_ring_reserve(&peer->tx, len);
    return shmpi_ring_reserve_leaving(&peer->tx, len,
                                      sizeof(struct shmpi_msg));
}

void *shmpi_p2p_chan_reserve(struct shmpi_peer *peer, size_t len)
{
    if (peer->tx.ring) {
        if (peer->waiting > peer->tx.size)
            ring_backlog(peer);
        void *body = ring_reserve(peer, len);
        if (body)
            return body;
        ring_too_small(peer, len, 1); /* may move to a larger ring */
        body = ring_reserve(peer, len);
        if (!body && shmpi_ring_ask_for_space(&peer->tx, len))
            body = ring_reserve(peer, len);
        return body;
    }
    struct shmpi_outbox_tx *ob = &peer->lane->outbox;
    int err;
    void *body = shmpi_outbox_reserve(ob, len, &err);
    if (!body && !err && shmpi_outbox_ask_for_space(ob, len))
        body = shmpi_outbox_reserve(ob, len, &err);
    if (err)
        shmpi_core_fatal(MPI_ERR_NO_MEM, "MPI progress", ob->why);
    return body;
}

void shmpi_p2p_chan_commit(struct shmpi_peer *peer, void *body)
{
    if (peer->tx.ring) {
        shmpi_ring_commit(&peer->tx, body);
        return;
    }
    shmpi_outbox_post(&peer->lane->outbox, body,
                      mailbox_of(peer->rank, peer->lane->index));
    peer->cold_records++;
}

/* src wrote CONNECT as the last record of its ring in `half` of our
   `slot`, and we have read it: nobody touches that ring again.  Its
   pages are punched out of the file (the memory goes back, and a later
   ring there reads as zeros, which an empty ring must: ring.c) before
   the owner word says, with release, which half we read now: src's
   next move waits for that word (move_ring).  If the punch fails the
   ring is zeroed by hand. */
static void leave_half(int src, uint32_t lane, uint32_t slot, uint32_t half,
                       uint64_t bytes)
{
    struct shmpi_proc *p = &shmpi_proc;
    struct shmpi_ring *ring = ring_at(p->rank, lane, slot, half);
    if (fallocate(p->arena_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                  file_offset(p->rank, lane, slot, half), (off_t)bytes) != 0)
        memset(ring, 0, bytes);
    atomic_store_explicit(slot_owner(p->rank, lane, slot),
                          ((uint32_t)src + 1) | (half ? 0 : OWNER_HALF),
                          memory_order_release);
}

void shmpi_p2p_hot_accept(struct shmpi_lane *l, int src, uint32_t slot,
                          uint32_t half, uint64_t bytes)
{
    struct shmpi_peer *peer = &l->peers[src];
    if (peer->rx.ring)
        leave_half(src, l->index, slot, !half,
                   peer->rx.size + SHMPI_RING_HEADER);
    else
        l->hot[l->nhot++] = src;
    shmpi_ring_rx_init(&peer->rx,
                       ring_at(shmpi_proc.rank, l->index, slot, half), bytes);
}

void shmpi_p2p_backlog_add(struct shmpi_lane *l, int rank)
{
    if (l->peers[rank].has_backlog)
        return;
    l->peers[rank].has_backlog = 1;
    l->backlog[l->nbacklog++] = rank;
}
