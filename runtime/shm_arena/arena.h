/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * arena.h - the layout of the job's shared control segment.
 *
 * The launcher (mpirun, or a program that starts its own ranks) creates
 * one sparse file on /dev/shm's tmpfs, reserves its fixed part with
 * posix_fallocate (so a /dev/shm too small for the job fails at start)
 * and hands the open descriptor to every rank through exec.  Every other
 * page is reserved, by the process about to write it, before it is first
 * written, and a reservation that fails is an MPI error at the call that
 * needed it: nothing is ever touched unreserved, so a full /dev/shm never
 * kills a rank with SIGBUS (the layout comment below says who reserves
 * what, and what each process maps).  The file has
 * no name by the time any rank runs (see arena.c), so nothing can be left
 * behind however the job ends.
 *
 * Everything here is shared by processes that may map the segment at
 * different addresses: it holds offsets from the segment start, never
 * pointers.  Each field that one process writes and others poll sits on
 * its own cache line (SHMPI_CACHELINE) so that a rank spinning on one
 * word does not steal the line another rank is writing.
 */
#ifndef SHMPI_ARENA_H
#define SHMPI_ARENA_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "shm_arena/blocked.h"

#define SHMPI_CACHELINE 64
#define SHMPI_CLAIMS 1024      /* cancellable sends in flight per rank */
#define SHMPI_ARENA_MAGIC 0x73686d7069617242ull /* "shmpiarB": bump when the layout changes */

/* Point-to-point lanes per rank at most (SHMPI_LANES). */
#define SHMPI_ARENA_LANES_MAX 16

/* Life cycle of one rank, written by the rank, read by the launcher. */
enum shmpi_rank_state {
    SHMPI_RANK_STARTED = 0,   /* forked, not yet in MPI_Init */
    SHMPI_RANK_INITIALIZED,   /* MPI_Init done */
    SHMPI_RANK_FINALIZED,     /* MPI_Finalize done: exiting 0 is fine */
    SHMPI_RANK_ABORTED,       /* MPI_Abort or a fatal MPI error */
};

/* How a rank ended the job on purpose (shmpi_rank_slot.abort_kind). */
enum shmpi_abort_kind {
    SHMPI_ABORT_NONE = 0,
    SHMPI_ABORT_CALLED,       /* the program called MPI_Abort */
    SHMPI_ABORT_FATAL_ERROR,  /* MPI_ERRORS_ARE_FATAL fired */
};

/* A rank sleeps only on its own doorbell (core/wait.c): whoever makes
   something true that the rank may be waiting for rings it, or the
   bell of one of its lanes (below), which wakes only the threads that
   wait for that lane.  Own cache line: senders read `sleepers` on
   every message. */
struct shmpi_doorbell {
    _Alignas(SHMPI_CACHELINE) _Atomic uint32_t seq;
    _Atomic uint32_t sleepers;
};
_Static_assert(sizeof(struct shmpi_doorbell) == SHMPI_CACHELINE,
               "a doorbell is one cache line");

/* The bell of a (rank, lane), in the lane's post block: who of the
   rank's sleepers a record or a completion in that lane must wake
   (core/wait.c: the count of those that wait for the lane, and of
   those that want to hear of it only when nobody waits for it).  They
   sleep on the rank's doorbell, each with a futex bitset of its lanes.
   Own cache line: the lane's senders read it on every message. */
struct shmpi_lane_bell {
    _Alignas(SHMPI_CACHELINE) _Atomic uint32_t sleepers;
};
_Static_assert(sizeof(struct shmpi_lane_bell) == SHMPI_CACHELINE,
               "a lane's bell is one cache line");

/* One per rank.  The first line is written by the rank and read by the
   launcher after the rank exited (the exit is the fence). */
struct shmpi_rank_slot {
    _Alignas(SHMPI_CACHELINE) _Atomic int state; /* enum shmpi_rank_state */
    int32_t pid;              /* the launcher's child writes its own before
                                 exec; MPI_Init then that of the owner */
    _Atomic int32_t owner_pid; /* the process that called MPI_Init as
                                  this rank (init/init.c), 0 before */
    int32_t abort_kind;       /* enum shmpi_abort_kind */
    int32_t abort_code;       /* MPI_Abort's errorcode or the error class */
    char abort_what[96];      /* e.g. "MPI_Send: MPI_ERR_RANK" */
    /* problems the check mode reported (core/check.c): + 1 (relaxed)
       by the rank at each report, read by the launcher after the rank
       exited, as the lines above */
    _Atomic uint32_t check_reports;
    /* SHMPI_ARENA_HAS_*: which of this rank's tables have their pages
       (set with release by the rank after it reserved them, read with
       acquire by whoever would read a table it was not sent to) */
    _Atomic uint32_t reserved;
    struct shmpi_doorbell doorbell;
    /* 1 while this rank holds more than its bound of memory for messages
       before their receive (pt2pt/flow.c): written by the rank only when
       that changes, read by every sender on every message, so it has a
       line of its own that is written that rarely */
    _Alignas(SHMPI_CACHELINE) _Atomic uint32_t unexpected_over;
    /* which threads sleep in MPI, what for (blocked.h): written on the
       slow path of a wait only, read by the launcher */
    struct shmpi_arena_blocked blocked;
};

/* The post block of each (rank, lane) (pt2pt/conn.c; a lane is an
   endpoint of its own, pt2pt/pt2pt.h): its mailbox (queues/mpsc.h, two
   cache lines), its outbox's waiting flag (queues/outbox.h, one line),
   the lane's bell (struct shmpi_lane_bell, one line: core/wait.c),
   then the owner words of its hot-ring slots, one uint32_t per slot
   (fast_rings of them, rounded up to a line).  pt2pt checks its
   structures against these sizes at compile time. */
#define SHMPI_POST_MAILBOX_BYTES (2 * SHMPI_CACHELINE)
#define SHMPI_POST_FLAG_BYTES SHMPI_CACHELINE
#define SHMPI_POST_BELL_AT (SHMPI_POST_MAILBOX_BYTES + SHMPI_POST_FLAG_BYTES)
#define SHMPI_POST_SLOTS_AT (SHMPI_POST_BELL_AT + SHMPI_CACHELINE)

/* Bits of shmpi_rank_slot.reserved. */
#define SHMPI_ARENA_HAS_CLAIMS 1u  /* its claim table (pt2pt/claim.c) */
#define SHMPI_ARENA_HAS_SYNC 2u    /* its sync counters (rma/sync_counter.c) */

/* Collective areas (runtime/coll/area.c): at most this many.  Their
   shape is laid out here, below coll, so that the arena needs nothing of
   the room that uses them: an area is a head of SHMPI_COLL_HEAD_BYTES,
   one control line of SHMPI_COLL_CTL_BYTES per rank, then, from the next
   page on, one data slot per rank.  coll/coll.h checks its structures
   against these sizes at compile time. */
#define SHMPI_COLL_AREAS_MAX 1024
#define SHMPI_COLL_HEAD_BYTES (4 * SHMPI_CACHELINE)
#define SHMPI_COLL_CTL_BYTES SHMPI_CACHELINE

/* The rendezvous of communicators made without a parent
   (MPI_Comm_create_from_group, MPI_Intercomm_create_from_groups:
   runtime/comm/comm_rdv.c says how they are used).  A slot is one such
   creation in progress, found by its string tag and its first member;
   the table and every slot are under rdv_lock, but gen, which members
   wait on.  The shape is laid out here, below comm, as the collective
   areas' is; comm/comm_rdv.c checks its limits against these. */
#define SHMPI_ARENA_RDV_SLOTS 64
#define SHMPI_ARENA_RDV_TAG 256      /* MPI_MAX_STRINGTAG_LEN */
#define SHMPI_ARENA_RDV_IDS 5
struct shmpi_arena_rdv {
    _Alignas(SHMPI_CACHELINE) uint64_t key; /* hash of tag and groups; 0:
                                               the slot is free */
    int32_t first;            /* world rank of the first member */
    uint32_t members;         /* processes that take part */
    uint32_t joined;          /* of them, arrived so far */
    _Atomic uint32_t gen;     /* + 1 when the last one arrives */
    uint32_t ids[SHMPI_ARENA_RDV_IDS]; /* contexts and areas, taken by
                                          the first to arrive */
    char tag[SHMPI_ARENA_RDV_TAG];
};

/* Job-wide tunables kept in the header, by their id in core/tunables.h. */
#define SHMPI_ARENA_TUNABLES 32

/*
 * What shapes an arena.  shm_arena reads no environment variable: the
 * creator (the launcher, or a singleton's MPI_Init) takes these from the
 * tunables table (core/tunables.c), which lives above this layer.
 */
struct shmpi_arena_params {
    uint64_t ring_bytes;      /* per hot ring; rounded up to pages, and
                                 halved in large jobs (arena.c) */
    uint32_t fast_rings;      /* hot-ring slots per receiver */
    uint64_t outbox_bytes;    /* per (rank, lane); rounded up to pages,
                                 halved in large jobs */
    uint32_t lanes;           /* point-to-point lanes per rank: a power of
                                 two, 1 to 16 (SHMPI_LANES) */
    uint32_t sync_per_rank;   /* capped so that a job has < 2^21 */
    uint32_t coll_areas;      /* at most SHMPI_COLL_AREAS_MAX */
    uint64_t coll_slot_bytes; /* rounded up to 8 KiB, halved in large jobs */
};

/*
 * Layout: header | slots[nranks] | post blocks | claim tables | sync
 * counters | lane 0 | lane 1 | ... | collective areas.  Point-to-point
 * has `lanes` endpoints per rank (pt2pt/pt2pt.h): a post block, an
 * outbox and fast_rings ring slots per (rank, lane).  The post blocks
 * are in the fixed part; the outboxes and hot rings are lane-major, a
 * lane's region holding every rank's outbox of that lane then every
 * receiver's ring slots of that lane (lane_bytes apart), so that a
 * rank maps one lane in one piece, when it first uses it.
 *
 * Reserved (fallocate) at creation: only the fixed part, [0,
 * fixed_bytes) = header, slots and post blocks (every sender pushes into
 * any rank's mailbox), and the head and control lines of collective
 * area 0 (MPI_COMM_WORLD's, which every rank may touch from its first
 * collective on).  Everything else is sparse and reserved by the process
 * that will write it, before it first does:
 *   - a rank's claim table at its first cancellable send, its sync
 *     counters at its first counter (whole pages each: claims_offset and
 *     sync_offset are page-aligned and a table is a multiple of pages);
 *   - an outbox by its owner as its high-water mark grows
 *     (queues/outbox.c), a hot ring by the sender that claims its slot
 *     (pt2pt/conn.c);
 *   - an area's head and control lines when a communicator takes it,
 *     each member's data slot by that member, in steps, as its
 *     collectives need more of it (coll/area.c), all punched out again
 *     when the last member frees the area.
 * So a job pays for what it uses, the launch stays O(nranks), and
 * point-to-point memory is O(nranks x lanes): a post block and at most
 * an outbox per (rank, lane), at most fast_rings rings per (receiver,
 * lane) - of which a job pays only for the lanes its communicators use
 * (a post block of each is in the fixed part: a few cache lines).
 *
 * Mapped: the launcher maps [0, fixed_bytes), all it reads; a rank maps
 * [0, shmpi_arena_view_bytes) at MPI_Init (the fixed part, the tables
 * and lane 0's region: O(nranks) of address space), each further lane's
 * region on its own (shmpi_arena_map, pt2pt/conn.c) when the first
 * communicator of that lane is made in the process, and each collective
 * area on its own while a communicator of its own uses it; so the
 * address space a rank takes grows with the lanes and communicators it
 * uses, not with SHMPI_LANES or SHMPI_COLL_AREAS.
 */
struct shmpi_arena_header {
    uint64_t magic;
    uint64_t bytes;           /* total size of the segment (mostly sparse) */
    uint32_t nranks;
    uint32_t ncpus;           /* CPUs the job may run on */
    int32_t launcher_pid;     /* the process that started the ranks (their
                                 common ancestor); 0 in a singleton's own */
    uint64_t slots_offset;    /* -> struct shmpi_rank_slot[nranks] */
    uint64_t post_offset;     /* -> the post block of rank r, lane l at
                                 post_offset + (r * lanes + l) *
                                 post_stride */
    uint64_t post_stride;
    uint64_t claims_offset;   /* -> per sender: _Atomic uint32_t
                                 [SHMPI_CLAIMS] (pt2pt/claim.c) */
    uint64_t sync_offset;     /* -> per owner: struct shmpi_sync_slot
                                 [sync_per_rank] (rma/sync_counter.h) */
    uint32_t sync_per_rank;
    uint64_t fixed_bytes;     /* [0, fixed_bytes) was fallocate'd at
                                 creation; what the launcher maps */
    uint64_t lane_bytes;      /* one lane's region (page multiple); lane
                                 l's starts at outbox_offset + l *
                                 lane_bytes */
    uint64_t outbox_offset;   /* -> the outbox of rank r, lane l at
                                 outbox_offset + l * lane_bytes + r *
                                 outbox_bytes */
    uint64_t outbox_bytes;
    uint64_t rings_offset;    /* -> hot-ring slot i of receiver d, lane l
                                 at rings_offset + l * lane_bytes + (d *
                                 fast_rings + i) * 2 * ring_bytes: two
                                 halves of a ring's size each
                                 (pt2pt/conn.c) */
    uint64_t ring_bytes;
    uint32_t fast_rings;
    uint32_t lanes;           /* point-to-point lanes per rank, a power
                                 of two */
    uint64_t coll_offset;     /* -> collective area i at coll_offset +
                                 i * coll_area_bytes (coll/coll.h) */
    uint64_t coll_area_bytes;
    uint64_t coll_data_offset; /* in an area: the members' data slots */
    uint64_t coll_slot_bytes; /* one member's data slot */
    uint32_t coll_areas;      /* how many; 0 in a job of one rank */
    /* the job-wide tunables (core/tunables.c), written by the creator
       before any rank exists: bit i of tunables_from_env says that
       tunables[i] came from the environment (else: the default) */
    uint64_t tunables[SHMPI_ARENA_TUNABLES];
    uint64_t tunables_from_env;
    /* communicator contexts handed out so far (comm/), starts at 0 */
    _Alignas(SHMPI_CACHELINE) _Atomic uint32_t contexts_used;
    /* the rendezvous table above, and its lock (a spin lock word: 0
       free, 1 taken; comm/comm_rdv.c) */
    _Alignas(SHMPI_CACHELINE) _Atomic uint32_t rdv_lock;
    struct shmpi_arena_rdv rdv[SHMPI_ARENA_RDV_SLOTS];
    /* first rank to abort wins: stores its rank + 1 with a CAS */
    _Alignas(SHMPI_CACHELINE) _Atomic int32_t first_abort;
    /* bit i: collective area i belongs to a communicator */
    _Alignas(SHMPI_CACHELINE) _Atomic uint64_t
        coll_used[SHMPI_COLL_AREAS_MAX / 64];
};

/* Creating and attaching; arena.c.  The creator's view (*hdr_out) is
   [0, fixed_bytes): header and slots, what a launcher reads; a rank's
   view (shmpi_arena_attach) is [0, shmpi_arena_view_bytes). */
int shmpi_arena_create(int nranks, int ncpus,
                       const struct shmpi_arena_params *params, int *fd_out,
                       struct shmpi_arena_header **hdr_out,
                       char *err, size_t errlen);
struct shmpi_arena_header *shmpi_arena_attach(int fd, int nranks,
                                              char *err, size_t errlen);
/* Unmap the creator's view; a rank's view. */
void shmpi_arena_detach(struct shmpi_arena_header *hdr);
void shmpi_arena_leave(struct shmpi_arena_header *hdr);

/* Reserve [offset, offset + bytes) of the arena's file (posix_fallocate)
   before writing there, for `what` (e.g. "this rank's claim table"): 0,
   or an errno and a one-line message in err saying how many bytes it
   needed and how much /dev/shm has free. */
int shmpi_arena_reserve(int fd, uint64_t offset, uint64_t bytes,
                        const char *what, char *err, size_t errlen);
/* Map [offset, offset + bytes) of the arena's file (offset page-aligned)
   for `what`: the address, or NULL and a one-line message in err that
   says how many bytes it needed (and names ulimit -v when RLIMIT_AS is
   what refused). */
void *shmpi_arena_map(int fd, uint64_t offset, uint64_t bytes,
                      const char *what, char *err, size_t errlen);

/* Lane l's region of outboxes and hot rings: its offset in the file
   (page-aligned; lane_bytes long). */
static inline uint64_t
shmpi_arena_lane_offset(const struct shmpi_arena_header *hdr, uint32_t lane)
{
    return hdr->outbox_offset + (uint64_t)lane * hdr->lane_bytes;
}

/* A rank's view at MPI_Init: the fixed part, the tables and lane 0. */
static inline uint64_t
shmpi_arena_view_bytes(const struct shmpi_arena_header *hdr)
{
    return shmpi_arena_lane_offset(hdr, 1);
}

/* The outbox of rank r's lane l, as an offset in the file. */
static inline uint64_t
shmpi_arena_outbox_offset(const struct shmpi_arena_header *hdr, int rank,
                          uint32_t lane)
{
    return shmpi_arena_lane_offset(hdr, lane) +
           (uint64_t)rank * hdr->outbox_bytes;
}

/* Half `half` of hot-ring slot `slot` of receiver d's lane l, as an
   offset in the file. */
static inline uint64_t
shmpi_arena_ring_offset(const struct shmpi_arena_header *hdr, int dst,
                        uint32_t lane, uint32_t slot, uint32_t half)
{
    return hdr->rings_offset + (uint64_t)lane * hdr->lane_bytes +
           (((uint64_t)dst * hdr->fast_rings + slot) * 2 + half) *
               hdr->ring_bytes;
}

/* One rank's claim table: SHMPI_CLAIMS words, a page. */
#define SHMPI_ARENA_CLAIMS_BYTES ((uint64_t)SHMPI_CLAIMS * sizeof(uint32_t))
_Static_assert(SHMPI_ARENA_CLAIMS_BYTES % 4096 == 0,
               "a claim table is whole pages");
static inline uint64_t
shmpi_arena_claims_offset(const struct shmpi_arena_header *hdr, int rank)
{
    return hdr->claims_offset + (uint64_t)rank * SHMPI_ARENA_CLAIMS_BYTES;
}

/* One rank's sync counters: sync_per_rank cache lines. */
static inline uint64_t
shmpi_arena_sync_bytes(const struct shmpi_arena_header *hdr)
{
    return (uint64_t)hdr->sync_per_rank * SHMPI_CACHELINE;
}

/* Collective area i, as an offset in the file (coll/area.c maps it). */
static inline uint64_t
shmpi_arena_area_offset(const struct shmpi_arena_header *hdr, uint32_t i)
{
    return hdr->coll_offset + (uint64_t)i * hdr->coll_area_bytes;
}

static inline struct shmpi_rank_slot *
shmpi_arena_slot(struct shmpi_arena_header *hdr, int rank)
{
    return (struct shmpi_rank_slot *)((char *)hdr + hdr->slots_offset) + rank;
}

/* The post block of rank r's lane l (see SHMPI_POST_MAILBOX_BYTES). */
static inline unsigned char *shmpi_arena_post(struct shmpi_arena_header *hdr,
                                              int rank, uint32_t lane)
{
    return (unsigned char *)hdr + hdr->post_offset +
           ((size_t)rank * hdr->lanes + lane) * hdr->post_stride;
}

/* The bell of rank r's lane l, in its post block. */
static inline struct shmpi_lane_bell *
shmpi_arena_lane_bell(struct shmpi_arena_header *hdr, int rank, uint32_t lane)
{
    return (struct shmpi_lane_bell *)(shmpi_arena_post(hdr, rank, lane) +
                                      SHMPI_POST_BELL_AT);
}

#endif
