/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sync.c - the progress words of an area: storing one, waiting for
 * others, the reuse rule for the two halves of a slot, and doorbells.
 *
 * Memory ordering, all of it:
 *   - shmpi_coll_publish is a release store of the member's word: the
 *     data it wrote in its slot or control line, and the lengths, are
 *     visible to whoever acquires the word; so are its reads of other
 *     members' slots (a release orders earlier loads too), which is what
 *     lets a writer reuse a half once it saw the readers' words move on.
 *   - every wait is an acquire load of the other member's word.
 *   - the slice-parallel reductions (reduce.c), where members write into
 *     each other's slots, separate every such write from its readers by a
 *     publish on one side and a wait on the other.
 * No read-modify-write anywhere on this path: each word has one writer.
 *
 * Doorbells: a waiter that sleeps does so on its own doorbell
 * (core/wait.c), so a member that stores a word someone may sleep on must
 * ring that someone afterwards.  Ringing costs a fence and one load of the
 * sleeper count per member (the fence only the compiler's where the job
 * has the global fence: shmpi_coll_ring); the algorithms ring exactly
 * the members that may wait for the store (the readers of data, the
 * writers waiting for STEP_DONE), and a member that skipped its
 * STEP_DONE (coll.h) rings everyone with its next store, since that
 * store is the one a writer claiming a half waits for.
 */
#include <stdio.h>

#include "coll/coll.h"
#include "core/blocked.h"
#include "core/wait.h"
#include "pt2pt/progress.h"

void shmpi_coll_publish(struct shmpi_coll *c, uint32_t step)
{
    atomic_store_explicit(&shmpi_coll_ctl(c, c->rank)->word,
                          shmpi_coll_word(c->seq, step),
                          memory_order_release);
}

int shmpi_coll_world_of(const struct shmpi_coll *c, int member)
{
    return c->world ? c->world[member] : member;
}

/* Member j's doorbell rung.  light: a job with the global fence, whose
   ring's fence shmpi_coll_ring made already (a compiler barrier).
   Inline: the ring of a 2-member MPI_Allreduce is 54 instructions so,
   64 through a call per member, 49 with the fence (callgrind,
   2026-11-30; perf/README.md). */
static inline __attribute__((always_inline)) void
ring_member(const struct shmpi_coll *c, int j, int light)
{
    int world = shmpi_coll_world_of(c, j);
    if (light)
        shmpi_core_ring_look(shmpi_core_doorbell_sleepers(world), world);
    else
        shmpi_core_doorbell_ring(world);
}

/* The pair, in a job with the global fence (core/wait.h,
   shmpi_core_ring_fence): this member's release store of its word
   (shmpi_coll_publish, the last one before this ring), then, kept in
   program order by the compiler barrier, the relaxed look at each
   member's sleeper count; a sleeper's count, its global fence, then its
   done() reading the word (core/wait.c, sleep_once).  The global fence
   runs a full fence on this CPU at some point of its program: after the
   store - done() sees the word - or before it, so before the look too -
   the look sees the count and wakes the sleeper.
   Without the global fence each ring is shmpi_core_doorbell_ring's, a
   seq_cst fence and a look, as it always was. */
void shmpi_coll_ring(struct shmpi_coll *c, int who)
{
    int light = shmpi_proc.fence_registered;
    if (light)
        shmpi_core_ring_fence(1);
    if (who == SHMPI_COLL_ALL || c->owe_all) {
        for (int j = 0; j < c->size; j++)
            if (j != c->rank)
                ring_member(c, j, light);
        c->owe_all = 0;
    } else if (who >= 0 && who != c->rank) {
        ring_member(c, who, light);
    }
}

_Atomic uint32_t *shmpi_coll_sleepers(const struct shmpi_coll *c, int member)
{
    return shmpi_core_doorbell_sleepers(shmpi_coll_world_of(c, member));
}

/* Waiting for the words of members [next, hi) to reach target. */
struct word_wait {
    struct shmpi_coll *c;
    int next, hi;
    uint64_t target;
};

static int all_reached(struct word_wait *w)
{
    for (; w->next < w->hi; w->next++) {
        if (w->next == w->c->rank)
            continue;
        uint64_t v = atomic_load_explicit(
            &shmpi_coll_ctl(w->c, w->next)->word, memory_order_acquire);
        if (!shmpi_coll_reached(v, w->target))
            return 0;
    }
    return 1;
}

static int words_reached(void *arg)
{
    if (all_reached(arg))
        return 1;
    shmpi_p2p_progress(); /* a rank waiting here still serves pt2pt */
    return 0;
}

int shmpi_coll_describe_as(const struct shmpi_coll *c, const char *call,
                           int root_rank, int member, const char *state,
                           char *buf, size_t len)
{
    char comm[MPI_MAX_OBJECT_NAME + 16], root[32] = "", peer[160];
    shmpi_core_blocked_comm(comm, sizeof comm, c->comm);
    if (call && root_rank >= 0)
        snprintf(root, sizeof root, " (root %d)", root_rank);
    int world = member >= 0 ? shmpi_coll_world_of(c, member) : -1;
    if (world >= 0)
        shmpi_core_blocked_peer(peer, sizeof peer, c->comm, world);
    snprintf(buf, len, "%s%s on %s%s%s%s", call ? call : "a collective",
             root, comm, state, world >= 0 ? ", waiting for " : "",
             world >= 0 ? peer : "");
    return world;
}

int shmpi_coll_describe(const struct shmpi_coll *c, int member,
                        const char *state, char *buf, size_t len)
{
    return shmpi_coll_describe_as(c, c->call, c->root, member, state, buf,
                                  len);
}

int shmpi_coll_missing(struct shmpi_coll *c, uint64_t seq, uint32_t step)
{
    for (int j = 0; j < c->size; j++)
        if (j != c->rank &&
            !shmpi_coll_reached(
                atomic_load_explicit(&shmpi_coll_ctl(c, j)->word,
                                     memory_order_relaxed),
                shmpi_coll_word(seq, step)))
            return j;
    return -1;
}

/* For the launcher's wait-for graph (core/wait.h): the member whose
   word is missing. */
static int describe_words(void *arg, char *buf, size_t len)
{
    const struct word_wait *w = arg;
    int m = w->next < w->hi ? w->next : w->hi - 1;
    return shmpi_coll_describe(w->c, m, "", buf, len);
}

static const struct shmpi_core_waitfor words_waitfor = {words_reached,
                                                        describe_words};

/* The first polls happen here, words only: with a CPU per rank the word
   usually arrives within a cache-line transfer or two, sooner than one
   turn of the progress engine or the clock reading that starts
   shmpi_core_wait_until's spin (which then turns progress on every poll, as
   it must before it may sleep).  Oversubscribed: straight to the wait
   policy, which yields at once. */
enum { QUICK_POLLS = 32 };

static void wait_words(struct shmpi_coll *c, int lo, int hi, uint64_t target)
{
    struct word_wait w = {c, lo, hi, target};
    int polls = shmpi_proc.oversubscribed ? 1 : QUICK_POLLS;
    for (int i = 0; i < polls; i++) {
        if (all_reached(&w))
            return;
        shmpi_cpu_relax();
    }
    shmpi_core_wait_for(&words_waitfor, &w, SHMPI_WAIT_ALL_LANES);
}

void shmpi_coll_wait(struct shmpi_coll *c, int j, uint32_t step)
{
    wait_words(c, j, j + 1, shmpi_coll_word(c->seq, step));
}

void shmpi_coll_wait_range(struct shmpi_coll *c, int lo, int hi,
                           uint32_t step)
{
    wait_words(c, lo, hi, shmpi_coll_word(c->seq, step));
    /* all stored a word of this collective: all finished the last one */
    if (lo == 0 && hi == c->size && c->known_done < c->seq - 1)
        c->known_done = c->seq - 1;
}

/*
 * The reuse rule.  Half h was last written by collective L and read by
 * last[h].readers; they are done with it once their words reach
 * (L, STEP_DONE), which any word of a later collective implies.
 */
void shmpi_coll_claim_wait(struct shmpi_coll *c, int h)
{
    uint64_t L = c->last[h].seq;
    uint64_t target = shmpi_coll_word(L, SHMPI_COLL_STEP_DONE);
    int readers = c->last[h].readers;
    if (readers == SHMPI_COLL_ALL) {
        wait_words(c, 0, c->size, target);
        c->known_done = L;
    } else if (readers >= 0) {
        wait_words(c, readers, readers + 1, target);
    }
}

/*
 * A member that stored before reading (or read nothing) leaves its word
 * below STEP_DONE: a writer reusing a half that recorded it among its
 * readers - "every other member" is recorded even where only some read -
 * then waits for this member's next store, which must ring everyone.
 */
void shmpi_coll_finish_done(struct shmpi_coll *c, int reads_from)
{
    shmpi_coll_publish(c, SHMPI_COLL_STEP_DONE);
    shmpi_coll_ring(c, reads_from);
}

/*
 * A member whose arguments were wrong (coll.h).  The order of its stores
 * is what the others rely on: `failed`, then the count (a release
 * increment), then the word (a release store) - so whoever acquired the
 * word, or a word of a member that did, sees both.  Of an Allreduce that
 * runs on the counter barrier it must arrive there too, and learns so
 * from another member's word (seq, 1), which is why it stores its own
 * (seq, 1) first: two refusing members then never wait for each other.
 *
 * `failed` is (L << 24) | bits: L the last collective the member
 * refused, bit i set if it refused L - 1 - i as well.  A refusing member
 * waits for nobody, so it may be several collectives ahead of a member
 * that still has to look; the bits keep the answer exact for 24
 * collectives back, and beyond that the looker assumes a refusal (an
 * error, not a wrong answer).  8 bits were too few: in coll_scatter at
 * np = 16 under ASan, members that needed rank 0's data only once in 16
 * rotating-root scatters ran ahead into five refused calls while rank 0
 * was more than 8 behind, and its correct MPI_Scatter reported
 * MPI_ERR_OTHER (2026-11-28, .ci/run).  L
 * keeps 40 bits: exact while a communicator has run fewer than 2^40
 * collectives.
 */
enum { FAILED_BITS = 24 };

static uint64_t failed_after(uint64_t f, uint64_t seq)
{
    uint64_t last = f >> FAILED_BITS, bits = f & ((1u << FAILED_BITS) - 1);
    uint64_t d = seq - last; /* >= 1 */
    bits = last && d <= FAILED_BITS ? (bits << d | 1u << (d - 1)) : 0;
    return seq << FAILED_BITS | (bits & ((1u << FAILED_BITS) - 1));
}

static int refused(uint64_t f, uint64_t seq)
{
    uint64_t last = f >> FAILED_BITS;
    if (last <= seq)
        return last == seq;
    uint64_t d = last - seq;
    return d > FAILED_BITS || (f >> (d - 1) & 1);
}

void shmpi_coll_refuse(struct shmpi_coll *c, int counted)
{
    struct shmpi_coll_head *head = (struct shmpi_coll_head *)c->area;
    _Atomic uint64_t *failed = &shmpi_coll_ctl(c, c->rank)->failed;
    shmpi_coll_calling(c, NULL, -1); /* named "a collective" */
    shmpi_coll_begin(c);
    /* relaxed: this member is the only writer; the increment and the
       word publish it */
    atomic_store_explicit(
        failed,
        failed_after(atomic_load_explicit(failed, memory_order_relaxed),
                     c->seq),
        memory_order_relaxed);
    atomic_fetch_add_explicit(&head->failures, 1, memory_order_release);
    if (counted) {
        /* pairs with the fence in barrier.c's ring_refusers: a member
           that stored its (seq, 1) word unseen by the waits below sees
           this count and rings us */
        atomic_thread_fence(memory_order_seq_cst);
        shmpi_coll_publish(c, 1);
        shmpi_coll_ring(c, SHMPI_COLL_ALL);
        if (shmpi_coll_counted_by_others(c))
            shmpi_coll_counter(c);
    }
    shmpi_coll_publish(c, SHMPI_COLL_STEP_DONE);
    shmpi_coll_ring(c, SHMPI_COLL_ALL);
}

int shmpi_coll_refused_seq(struct shmpi_coll *c, int member)
{
    return refused(atomic_load_explicit(&shmpi_coll_ctl(c, member)->failed,
                                        memory_order_relaxed),
                   c->seq);
}

/* Relaxed loads: the caller acquired the count, which every refusing
   member increments after storing its `failed`. */
int shmpi_coll_failed_scan(struct shmpi_coll *c, uint32_t failures)
{
    uint64_t max = 0;
    int any = 0;
    for (int j = 0; j < c->size; j++) {
        if (j == c->rank)
            continue;
        uint64_t f = atomic_load_explicit(&shmpi_coll_ctl(c, j)->failed,
                                          memory_order_relaxed);
        if (f >> FAILED_BITS > max)
            max = f >> FAILED_BITS;
        any |= refused(f, c->seq);
    }
    c->failures_seen = failures;
    c->failed_max = max;
    return any;
}
