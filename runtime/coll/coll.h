/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * coll.h - the blocking collectives of intracommunicators, in shared
 * memory (MPI-3.1 chapter 5).  man shmpi_coll(7) tells the same story for
 * users; this is the version for the code.
 *
 * THE AREA.  Every communicator of more than one process gets a
 * "collective area" in the arena (area.c): an area slot taken from a
 * bitmap in the arena header by the rank that creates the communicator,
 * sent to the others with the context, and released by the last member to
 * free it (its pages are punched out of the file, so the memory goes back
 * to the machine).  MPI_COMM_WORLD owns area 0.  A member maps the area
 * only while its communicator lives, and reserves its slot's pages as
 * its collectives need them (area.c).  An area holds
 *   - a head: the members' reference count and a counter barrier;
 *   - one control line per member (struct shmpi_coll_ctl), written only
 *     by that member: its progress word, and by sequence parity the
 *     length and (up to SHMPI_COLL_INLINE bytes) the data it publishes;
 *   - one data slot per member, SHMPI_COLL_SLOT_KB (default 128 KiB),
 *     used as two halves by sequence parity; a collective that needs more
 *     moves its data in rounds that alternate between the halves.
 * A member's slot and line are written by that member only; the one
 * exception is the slice-parallel reduction (reduce.c), where each rank
 * folds its own slice of the other slots in place between two steps.
 *
 * THE WORD.  A member's progress word is (seq << 32) | step, where seq
 * numbers the collectives on the communicator (all members run them in
 * the same order, so they agree on it without talking) and step says how
 * far this member got in collective seq.  It only grows, so "has j
 * reached (seq, step)?" is one acquire load and a compare, an overshoot
 * never loses a signal, and consecutive collectives cannot confuse each
 * other.  STEP_DONE means "finished reading everything of this
 * collective"; any word of a later collective implies it too.
 *
 * THE REUSE RULE (sync.c).  Collective s writes half (s & 1); before a
 * member writes a half it waits until every reader of the collective that
 * last wrote that half has reached (that seq, STEP_DONE).  Since a half
 * was last written at s - 2 or earlier, and every member stores its word
 * at least once in each collective, that wait never depends on anything
 * of collective s and is usually already satisfied (known_done caches
 * what the rank has seen).  A member that stored its word before reading
 * in s (or read nothing) may skip its final (s, STEP_DONE) store - its
 * first store in s + 1 says the same - but then owes a ring of every
 * doorbell with that store (owe_all).  A collective that writes both
 * halves stores STEP_DONE explicitly, because the next one reuses a half
 * it wrote.  "A later word implies STEP_DONE" holds because a member
 * runs its collectives on the area one at a time: the blocking ones, and
 * the persistent Allreduce of a few bytes (pallreduce.c), which may stay
 * started while others run but keeps the rule - a member stores no word
 * of a later collective before it has completed the started one.  The
 * nonblocking collectives, several in flight, run as schedules of
 * messages (coll/sched.h) and never touch the area.
 *
 * NOT READING ONE'S OWN LINE BACK.  A member folds its own contribution
 * from private memory (its send buffer, or a private copy of it), never
 * from the line or half it published: once another member has read
 * that line, reading it back costs the owner a cache-line crossing of
 * its own, as if the reader had taken the line away (a CPU may hand a
 * dirty line over whole to the CPU that reads it), and the owner's next
 * store then has to take it back.  Two processes bouncing an 8-byte exchange
 * through one line each took 290 ns a round, and 480 ns when each also
 * read back its own value after the other's word arrived (2026-12-01,
 * far state; a loop like perf/bench.h's bench_exchange); the 8 B
 * Allreduce at np = 2 went from 0.35 to 0.19 us persistent and to 0.24
 * blocking when its fold stopped reading the member's own line
 * (perf/README.md's pcoll).
 *
 * WAITING.  Every wait polls the words briefly, then is shmpi_core_wait_until
 * (core/wait.h) with a done() that turns the pt2pt progress engine;
 * whoever stores a word that another member may sleep on rings that
 * member's doorbell after the store - where it is safe, after its own
 * next wait, so that the ring's fence overlaps a cache-line transfer
 * (barrier.c says when that is).
 *
 * A MEMBER WHOSE ARGUMENTS WERE WRONG.  Under an error handler that
 * returns, a member that raised an argument error before it began the
 * collective would leave its seq one behind the others', and from then
 * on read their words of one collective as those of another - and their
 * data with them: wrong answers, never an error.  So it takes its part
 * all the same (shmpi_coll_refuse): it begins the collective, marks it
 * refused in its control line's `failed`, counts itself in the head's
 * `failures`, and stores (seq, STEP_DONE) - every wait on it ends, and
 * it writes no half.  Whoever read from it (directly, or through a
 * member that did) saw the count move, since the count moved before the
 * word it waited for; every member checks the count when its part ends
 * (shmpi_coll_outcome: one load of a line that is only written on
 * errors, and a compare) and, if some member refused this collective,
 * reports MPI_ERR_OTHER instead of its result.  A member that did not
 * depend on the refusing one may still succeed.  The seqs stay equal,
 * so the next collective is right.  Every member therefore begins every
 * collective it is called for: none skips an empty one, since a member
 * with a bad count cannot tell whether it was empty.
 *
 * Communicators without an area (all areas taken, or the arena file
 * could not grow) run the same collectives on point-to-point messages
 * (fallback.c): slower, never failing.  So do reductions whose datatype
 * element does not fit half a slot, and scatter/all-to-all with more
 * members than bytes in half a slot (xchg.c: shmpi_coll_xchg_region).
 */
#ifndef SHMPI_COLL_H
#define SHMPI_COLL_H

#include <stdatomic.h>
#include <stdint.h>

#include "core/objects.h"
#include "core/proc.h"
#include "datatypes/datatype.h"

#define SHMPI_COLL_NO_AREA UINT32_MAX
#define SHMPI_COLL_INLINE 16        /* bytes published in the control line */
#define SHMPI_COLL_STEP_DONE 0xffffffffu
#define SHMPI_COLL_ALL (-1)         /* "every other member", for readers */

/* The head of an area: written by several members, each word on its own
   line (the counter barrier hammers `arrived` while waiters poll
   `generation`). */
struct shmpi_coll_head {
    _Alignas(SHMPI_CACHELINE) _Atomic uint32_t refs; /* members holding it */
    _Alignas(SHMPI_CACHELINE) _Atomic uint32_t arrived;
    _Alignas(SHMPI_CACHELINE) _Atomic uint32_t generation;
    _Alignas(SHMPI_CACHELINE) _Atomic uint32_t failures; /* refusals */
};

/* One member's control line, 64 bytes, written by that member only: the
   readers of a small collective find the data in the same line as the
   word that announces it - one cache-line transfer. */
struct shmpi_coll_ctl {
    _Alignas(SHMPI_CACHELINE) _Atomic uint64_t word;
    uint64_t len[2];            /* by parity: bytes published this time */
    unsigned char data[2][SHMPI_COLL_INLINE]; /* by parity: small data */
    _Atomic uint64_t failed;    /* which collectives it refused (sync.c) */
};
/* The launcher laid the areas out with these sizes (shm_arena/arena.h). */
_Static_assert(sizeof(struct shmpi_coll_head) == SHMPI_COLL_HEAD_BYTES,
               "the head is the size the arena's layout gives it");
_Static_assert(sizeof(struct shmpi_coll_ctl) == SHMPI_COLL_CTL_BYTES,
               "a control line is the size the arena's layout gives it");

struct shmpi_coll_pend;

/* The private state of one communicator's collectives. */
struct shmpi_coll {
    unsigned char *area;        /* this process's view of the area */
    unsigned char *slots;       /* its data slots */
    uint32_t index;             /* area slot (0: MPI_COMM_WORLD) */
    int rank, size;
    uint32_t context;           /* the communicator's (its pt2pt lane) */
    const int *world;           /* member -> world rank (NULL: identity) */
    uint64_t slot_bytes;        /* one member's data slot */
    uint64_t half;              /* bytes of one half of it */
    uint64_t seq;               /* collectives started on the comm */
    uint64_t known_done;        /* every member finished every collective
                                   up to this one */
    int owe_all;                /* the last collective skipped STEP_DONE:
                                   ring every doorbell with the next store */
    struct {
        uint64_t seq;           /* collective that last wrote the half */
        int readers;            /* who read it: a member or COLL_ALL */
    } last[2];
    uint32_t failures_seen;     /* the head's failures when last looked */
    uint64_t failed_max;        /* the last collective a member had
                                   refused then */
    int barrier_rounds;         /* ceil(log2(size)) */
    uint64_t reserved;          /* bytes of each half of this member's
                                   slot that have their pages */
    void *scratch;              /* typed staging for derived-type folds */
    size_t scratch_bytes;
    struct {                    /* the kernel of the last (op, predefined
                                   type) folded here (fold.c) */
        MPI_Op op;
        MPI_Datatype type;
        void (*fn)(const void *restrict, void *restrict, size_t);
    } kernel;
    /* started persistent Allreduces on the area not yet complete, oldest
       first (pallreduce.c): changed under the communicator's lane; the
       store that empties it is a release, shmpi_coll_begin's load an
       acquire */
    struct shmpi_coll_pend *_Atomic pend;
    /* For the deadlock report only (sync.c's describers, run when the
       launcher asks a member asleep in a wait on the area): the
       communicator, and the MPI call running a collective on the area
       now (NULL: none named yet) with its root (-1: none), stored as
       the call begins - one store each, nothing read on the way */
    MPI_Comm comm;
    const char *call;
    int root;
};

/* Tunables: shmpi_proc.coll_tune (core/proc.h), read once by
   shmpi_coll_init (area.c documents them). */

/* ------------------------------------------------------------------ */
/* area.c: the areas                                                   */
/* ------------------------------------------------------------------ */

/* MPI_Init: tunables, the operations of SHMPI_REQ_COLL (sched.h), and
   MPI_COMM_WORLD's collective state (area 0, mapped); 0, or -1 with the
   reason in shmpi_proc.open_why. */
int shmpi_coll_init(MPI_Comm world);
/* Taken by the process that creates a communicator of `members`
   processes, before it tells them: an area slot whose pages are reserved
   and whose reference count is `members`, or SHMPI_COLL_NO_AREA. */
uint32_t shmpi_coll_area_take(int members);
/* Every member of a new communicator, with the slot it was told (which
   may be SHMPI_COLL_NO_AREA): sets c->coll, the area mapped into this
   process.  Without memory for the state or address space for the
   mapping the member drops its reference and returns MPI_ERR_NO_MEM for
   the caller to raise, with the reason (bytes, ulimit -v) in
   shmpi_proc.open_why: one member alone cannot fall back to
   messages while the others use the area. */
int shmpi_coll_attach(MPI_Comm c, uint32_t area);
/* Before a collective that puts up to `bytes` in each half of this
   member's slot (0: it writes only its control line): those pages
   reserved, in steps (area.c); MPI_ERR_NO_MEM when /dev/shm has no room
   for them, with a line in err saying how much it needed and how much
   /dev/shm has (the caller refuses the collective and raises it). */
int shmpi_coll_reserve(struct shmpi_coll *c, uint64_t bytes, char *err,
                       size_t errlen);
/* A reference to `area` that no communicator object will hold (a member
   failed to build its communicator). */
void shmpi_coll_area_drop(uint32_t area);
/* The communicator object goes away: drop its area reference. */
void shmpi_coll_detach(MPI_Comm c);

/* ------------------------------------------------------------------ */
/* sync.c: words, waits, the reuse rule, doorbells                     */
/* ------------------------------------------------------------------ */

static inline uint64_t shmpi_coll_word(uint64_t seq, uint32_t step)
{
    return seq << 32 | step;
}

/* Has word v reached target?  Wrap-safe: words compared are never more
   than a few collectives apart. */
static inline int shmpi_coll_reached(uint64_t v, uint64_t target)
{
    return (int64_t)(v - target) >= 0;
}

static inline struct shmpi_coll_ctl *shmpi_coll_ctl(struct shmpi_coll *c,
                                                   int member)
{
    return (struct shmpi_coll_ctl *)(c->area +
                                     sizeof(struct shmpi_coll_head)) +
           member;
}

/* Half h of member's data slot. */
static inline unsigned char *shmpi_coll_half(struct shmpi_coll *c,
                                             int member, int h)
{
    return c->slots + (uint64_t)member * c->slot_bytes + (uint64_t)h * c->half;
}

/* Start collective number c->seq + 1; returns its seq. */
static inline uint64_t shmpi_coll_begin_raw(struct shmpi_coll *c)
{
    return ++c->seq;
}
/* pallreduce.c: complete this member's started persistent collectives
   on the area, waiting for the others' contributions. */
void shmpi_coll_drain(struct shmpi_coll *c);
/* The same for a blocking collective, which first completes whatever
   persistent collective this member started on the area before it
   (pallreduce.c: a member's word of collective s says it finished
   reading every earlier one). */
static inline uint64_t shmpi_coll_begin(struct shmpi_coll *c)
{
    if (__builtin_expect(
            atomic_load_explicit(&c->pend, memory_order_acquire) != NULL, 0))
        shmpi_coll_drain(c);
    return shmpi_coll_begin_raw(c);
}

/* The MPI call fn, with root (-1: not a rooted call), runs a
   collective on the area (the names the deadlock report gives). */
static inline void shmpi_coll_calling(struct shmpi_coll *c, const char *fn,
                                      int root)
{
    c->call = fn;
    c->root = root;
}
/* barrier.c: MPI_Barrier on comm for the MPI call fn (MPI_Win_fence,
   MPI_Finalize: the name the deadlock report gives it); MPI_SUCCESS or
   the error raised under fn. */
int shmpi_coll_barrier_as(MPI_Comm comm, const char *fn);

/* Store this member's word (release: everything written before it -
   slot, inline data, lengths - is visible to whoever acquires it). */
void shmpi_coll_publish(struct shmpi_coll *c, uint32_t step);
/* Ring member j's doorbell, or every other member's (SHMPI_COLL_ALL);
   pays what this rank owes (owe_all) too. */
void shmpi_coll_ring(struct shmpi_coll *c, int who);
/* The count of member's sleepers on its doorbell
   (shmpi_core_doorbell_sleepers: for a look without a fence). */
_Atomic uint32_t *shmpi_coll_sleepers(const struct shmpi_coll *c, int member);
/* Member's rank in MPI_COMM_WORLD (whose doorbell to ring). */
int shmpi_coll_world_of(const struct shmpi_coll *c, int member);
/* The deadlock report's line for a member of c asleep in a collective
   (core/wait.h's describe): "CALL (root R) on COMM" + state + ",
   waiting for rank W (rank M in COMM)" when member >= 0; returns
   member's rank in MPI_COMM_WORLD, or -1. */
int shmpi_coll_describe(const struct shmpi_coll *c, int member,
                        const char *state, char *buf, size_t len);
/* The same for the call `call` with root root_rank (-1: none) rather
   than the one running on the area now (c->call). */
int shmpi_coll_describe_as(const struct shmpi_coll *c, const char *call,
                           int root_rank, int member, const char *state,
                           char *buf, size_t len);
/* For those lines: the first member (not this one) whose word has not
   reached (seq, step), or -1 (relaxed loads: a report, not a sync). */
int shmpi_coll_missing(struct shmpi_coll *c, uint64_t seq, uint32_t step);
/* Wait until member j's word reaches (c->seq, step). */
void shmpi_coll_wait(struct shmpi_coll *c, int j, uint32_t step);
/* Wait until the word of every member in [lo, hi) but this one reaches
   (c->seq, step).  Waiting for all of them also teaches this member that
   all finished the previous collective (known_done). */
void shmpi_coll_wait_range(struct shmpi_coll *c, int lo, int hi,
                           uint32_t step);
/* Without waiting: has every other member's word reached (seq, step)?
   Then all finished collective seq - 1 (known_done).  Each word an
   acquire load: what its member wrote before it is visible.  Inline:
   the persistent Allreduce's MPI_Wait polls with it (pallreduce.c). */
static inline int shmpi_coll_test_range(struct shmpi_coll *c, uint64_t seq,
                                        uint32_t step)
{
    uint64_t target = shmpi_coll_word(seq, step);
    for (int j = 0; j < c->size; j++) {
        if (j == c->rank)
            continue;
        uint64_t v = atomic_load_explicit(&shmpi_coll_ctl(c, j)->word,
                                          memory_order_acquire);
        if (!shmpi_coll_reached(v, target))
            return 0;
    }
    if (c->known_done < seq - 1)
        c->known_done = seq - 1;
    return 1;
}
static inline void shmpi_coll_wait_all(struct shmpi_coll *c, uint32_t step)
{
    shmpi_coll_wait_range(c, 0, c->size, step);
}
/* The reuse rule: before writing half h in this collective.  Inline
   the common case, a half whose readers are known to be done. */
void shmpi_coll_claim_wait(struct shmpi_coll *c, int h);
static inline void shmpi_coll_claim(struct shmpi_coll *c, int h)
{
    uint64_t L = c->last[h].seq;
    if (L != 0 && L > c->known_done)
        shmpi_coll_claim_wait(c, h);
}
/* After writing half h in this collective, read by `readers`. */
static inline void shmpi_coll_wrote(struct shmpi_coll *c, int h, int readers)
{
    c->last[h].seq = c->seq;
    c->last[h].readers = readers;
}
/* End of a collective for this member.  stored_first: its first store in
   this collective came before its first read, and it wrote at most the
   parity half, so STEP_DONE may be left to the next collective's first
   store (which then rings everyone).  reads_from: whom it read
   (SHMPI_COLL_ALL, a member, or SHMPI_COLL_NOBODY): they are rung with
   the STEP_DONE store. */
#define SHMPI_COLL_NOBODY (-2)
void shmpi_coll_finish_done(struct shmpi_coll *c, int reads_from);
static inline void shmpi_coll_finish(struct shmpi_coll *c, int stored_first,
                                     int reads_from)
{
    if (stored_first || reads_from == SHMPI_COLL_NOBODY)
        c->owe_all = 1;
    else
        shmpi_coll_finish_done(c, reads_from);
}

/* This member's arguments were wrong: take its part in the next
   collective as a member that refuses it (top comment).  counted: the
   collective is an Allreduce, which may run on the counter barrier
   (shmpi_coll_counted_by_others), where this member must then arrive. */
void shmpi_coll_refuse(struct shmpi_coll *c, int counted);
/* Did another member refuse collective c->seq?  Cheap unless some
   member refused lately: the scan records what it saw in c
   (failures_seen, failed_max), a cache that leaves the answer the same
   however often it is asked. */
int shmpi_coll_failed_scan(struct shmpi_coll *c, uint32_t failures);
/* Did member refuse collective c->seq (its word reached it)? */
int shmpi_coll_refused_seq(struct shmpi_coll *c, int member);
static inline int shmpi_coll_failed(struct shmpi_coll *c)
{
    struct shmpi_coll_head *head = (struct shmpi_coll_head *)c->area;
    /* acquire: pairs with the refusing member's release increment, so
       its `failed` is visible to the scan */
    uint32_t n = atomic_load_explicit(&head->failures, memory_order_acquire);
    if (n == c->failures_seen && c->failed_max < c->seq)
        return 0;
    return shmpi_coll_failed_scan(c, n);
}
/* The end of a collective that ran in c, comm's area: MPI_SUCCESS, or
   MPI_ERR_OTHER raised on comm under fn when another member refused
   it. */
int shmpi_coll_report_failed(MPI_Comm comm, const char *fn);
static inline int shmpi_coll_outcome(struct shmpi_coll *c, MPI_Comm comm,
                                     const char *fn)
{
    return shmpi_coll_failed(c) ? shmpi_coll_report_failed(comm, fn)
                                : MPI_SUCCESS;
}

/* reduce.c: a member that refuses an Allreduce learns whether the others
   run it on the counter barrier from one that did not refuse. */
int shmpi_coll_counted_by_others(struct shmpi_coll *c);

/* barrier.c: the counter barrier (the last of the members to add itself
   to the head's count advances its generation; the others wait for
   that), for the collectives that run on it when ranks outnumber CPUs.
   Stores (seq, 1) first, so what this member wrote before the call is
   visible to every member after it. */
void shmpi_coll_counter(struct shmpi_coll *c);

/* ------------------------------------------------------------------ */
/* fold.c: reductions of packed data                                   */
/* ------------------------------------------------------------------ */

/* Before a collective that reduces elements of t: the staging memory
   the two calls below may need; MPI_ERR_NO_MEM if there is none. */
int shmpi_coll_fold_prepare(struct shmpi_coll *c, MPI_Datatype t);
/* inout = in op inout for n elements of t, both packed. */
void shmpi_coll_reduce_packed(struct shmpi_coll *c, MPI_Op op,
                              MPI_Datatype t, const void *in, void *inout,
                              MPI_Count n);
/* The same with inout typed (laid out as t says), in packed. */
void shmpi_coll_reduce_into(struct shmpi_coll *c, MPI_Op op, MPI_Datatype t,
                            const void *in, void *inout, MPI_Count n);
/* A typed buffer of n elements of t: the malloc'd block in *block, the
   returned pointer is element 0; NULL when out of memory. */
void *shmpi_coll_typed_alloc(MPI_Datatype t, MPI_Count n, void **block);

#endif
