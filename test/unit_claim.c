/* unit_claim: the claim words of cancellable sends (pt2pt/claim.c), a sender cancelling while a receiver matches: exactly one of the two wins each message, and no word is reused while a message names it. */
/* shmpi-test: unit timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Rank 0 sends MESSAGES messages {id, claim} to rank 1 over a ring
 * (queues/ring.c), each with a claim word from its table in the arena;
 * for one message in two it calls shmpi_p2p_claim_cancel, at once or
 * after a pseudo-random pause.  Rank 1 takes each message, keeps most
 * aside for a while (so that most words are in flight), and decides each
 * by shmpi_p2p_claim_match (a receive matching it) or first
 * shmpi_p2p_claim_free_if_cancelled (a probe of the unexpected queue);
 * what it matched it reports back over a second ring, and rank 0 frees
 * the word then, as a completed send does.
 *
 * Checked: each message is either cancelled by the sender or matched by
 * the receiver, never both and never neither; the word of a message in
 * flight still belongs to it whenever the receiver looks (a word taken
 * again too early would name another message); at the end every word of
 * the table is free again.
 */
#include "unit.h"

#include "pt2pt/claim.h"
#include "queues/ring.h"

#define MESSAGES 200000
#define RING_BYTES (SHMPI_RING_HEADER + 4096)
#define HELD (SHMPI_CLAIMS * 3 / 4) /* messages the receiver keeps aside */
#define DONE UINT32_MAX         /* id of the last message, either way */

enum { SENT_CANCELLED = 1 };
enum { RECV_MATCHED = 1, RECV_DROPPED };

struct shared {
    _Alignas(SHMPI_CACHELINE) unsigned char to_recv[RING_BYTES];
    _Alignas(SHMPI_CACHELINE) unsigned char to_send[RING_BYTES];
    /* id + 1 of the last message the receiver took */
    _Alignas(SHMPI_CACHELINE) _Atomic uint32_t seen;
    /* the message that last took each word of rank 0 */
    _Atomic uint32_t owner[SHMPI_CLAIMS + 1];
    _Atomic uint8_t sent[MESSAGES];   /* SENT_CANCELLED, by rank 0 */
    _Atomic uint8_t recv[MESSAGES];   /* RECV_*, by rank 1 */
};

struct msg {
    uint32_t id, claim;
};

struct chan {
    struct shmpi_ring_tx tx;
    struct shmpi_ring_rx rx;
};

static int try_send(struct chan *c, struct msg m)
{
    struct msg *b = shmpi_ring_reserve(&c->tx, sizeof m);
    if (!b)
        return 0;
    *b = m;
    shmpi_ring_commit(&c->tx, b);
    return 1;
}

static int try_recv(struct chan *c, struct msg *m)
{
    const struct msg *b = shmpi_ring_peek(&c->rx);
    if (!b)
        return 0;
    *m = *b;
    shmpi_ring_consume(&c->rx);
    shmpi_ring_publish(&c->rx); /* nobody sleeps: its answer is moot */
    return 1;
}

/* ------------------------------------------------------------ sender */

struct sender {
    struct shared *sh;
    struct chan c;
    uint64_t rnd;
    uint32_t done_seen;         /* the receiver's DONE arrived */
    uint32_t completions, cancelled;
};

static void take_completions(struct sender *s)
{
    struct msg m;
    while (try_recv(&s->c, &m)) {
        if (m.id == DONE) {
            s->done_seen = 1;
            continue;
        }
        UCHECK(!atomic_load_explicit(&s->sh->sent[m.id],
                                     memory_order_relaxed),
               "message %u completed by the receiver, but its cancel "
               "succeeded", m.id);
        shmpi_p2p_claim_free(m.claim);
        s->completions++;
    }
}

static void send_one(struct sender *s, uint32_t id)
{
    uint32_t claim;
    unsigned polls = 0;
    while (!(claim = shmpi_p2p_claim_take(shmpi_p2p_lane_of(0)))) {
        take_completions(s); /* the table is full: words come back */
        unit_pause(&polls);
    }
    UCHECK(claim <= SHMPI_CLAIMS, "claim %u", claim);
    atomic_store_explicit(&s->sh->owner[claim], id, memory_order_relaxed);
    polls = 0;
    while (!try_send(&s->c, (struct msg){id, claim})) {
        take_completions(s);
        unit_pause(&polls);
    }
    uint64_t r = unit_rand(&s->rnd);
    if (r & 1)
        return;
    /* a cancel at every distance from the send, and one in two just as
       the receiver takes the message, when it may be matching it */
    if (r & 2) {
        while (atomic_load_explicit(&s->sh->seen, memory_order_relaxed) <
               id + 1) {
            take_completions(s);
            unit_pause(&polls);
        }
    }
    for (uint64_t k = (r >> 2) % 64; k > 0; k--)
        shmpi_cpu_relax();
    if (shmpi_p2p_claim_cancel(claim)) {
        atomic_store_explicit(&s->sh->sent[id], SENT_CANCELLED,
                              memory_order_relaxed);
        s->cancelled++;
    }
}

static void sender(struct shared *sh)
{
    struct sender s = {.sh = sh, .rnd = 0x243f6a8885a308d3ull};
    shmpi_ring_tx_init(&s.c.tx, (struct shmpi_ring *)sh->to_recv, RING_BYTES);
    shmpi_ring_rx_init(&s.c.rx, (struct shmpi_ring *)sh->to_send, RING_BYTES);
    for (uint32_t id = 0; id < MESSAGES; id++)
        send_one(&s, id);
    unsigned polls = 0;
    while (!try_send(&s.c, (struct msg){DONE, 0}))
        unit_pause(&polls);
    while (!s.done_seen) {
        take_completions(&s);
        unit_pause(&polls);
    }
    UCHECK(s.completions + s.cancelled == MESSAGES,
           "%u completed and %u cancelled of %d messages", s.completions,
           s.cancelled, MESSAGES);
    struct shmpi_arena_header *a = shmpi_proc.arena;
    _Atomic uint32_t *w = (_Atomic uint32_t *)((char *)a + a->claims_offset);
    for (int i = 0; i < SHMPI_CLAIMS; i++)
        UCHECK(atomic_load(&w[i]) == 0, "claim word %d is %u at the end, "
               "not free", i + 1, atomic_load(&w[i]));
    printf("unit_claim: %d messages, %u cancelled, %u matched\n", MESSAGES,
           s.cancelled, s.completions);
}

/* ---------------------------------------------------------- receiver */

struct receiver {
    struct shared *sh;
    struct chan c;
    uint64_t rnd;
    struct msg held[SHMPI_CLAIMS]; /* "unexpected": at most one per word */
    int nheld;
};

static void check_owner(struct receiver *r, struct msg m, const char *when)
{
    uint32_t o = atomic_load_explicit(&r->sh->owner[m.claim],
                                      memory_order_relaxed);
    UCHECK(o == m.id, "%s message %u: its claim word %u was taken again "
           "meanwhile, by message %u", when, m.id, m.claim, o);
}

static void outcome(struct receiver *r, struct msg m, uint8_t what)
{
    UCHECK(!atomic_load_explicit(&r->sh->recv[m.id], memory_order_relaxed),
           "message %u received twice", m.id);
    atomic_store_explicit(&r->sh->recv[m.id], what, memory_order_relaxed);
}

static void match(struct receiver *r, struct msg m)
{
    check_owner(r, m, "matching");
    if (!shmpi_p2p_claim_match(0, m.claim)) {
        outcome(r, m, RECV_DROPPED);
        return;
    }
    check_owner(r, m, "matched");
    outcome(r, m, RECV_MATCHED);
    unsigned polls = 0;
    while (!try_send(&r->c, m))
        unit_pause(&polls); /* the sender drains while it waits */
}

/* A held message: probed again (maybe dropped), or matched now. */
static int settle(struct receiver *r, struct msg m)
{
    uint64_t x = unit_rand(&r->rnd);
    if (x & 1) {
        check_owner(r, m, "probing");
        if (shmpi_p2p_claim_free_if_cancelled(0, m.claim)) {
            outcome(r, m, RECV_DROPPED);
            return 1;
        }
        return 0;
    }
    match(r, m);
    return 1;
}

static void receiver(struct shared *sh)
{
    static struct receiver r;
    r.sh = sh;
    r.rnd = 0x13198a2e03707344ull;
    shmpi_ring_tx_init(&r.c.tx, (struct shmpi_ring *)sh->to_send, RING_BYTES);
    shmpi_ring_rx_init(&r.c.rx, (struct shmpi_ring *)sh->to_recv, RING_BYTES);
    unsigned polls = 0;
    for (;;) {
        struct msg m;
        if (!try_recv(&r.c, &m)) {
            /* the sender may wait for words that held messages keep:
               after a while without a message, settle them */
            if (polls > 1024 && r.nheld > 0 &&
                settle(&r, r.held[r.nheld - 1]))
                r.nheld--;
            unit_pause(&polls);
            continue;
        }
        polls = 0;
        if (m.id == DONE)
            break;
        atomic_store_explicit(&sh->seen, m.id + 1, memory_order_relaxed);
        UCHECK(m.id < MESSAGES && m.claim >= 1 && m.claim <= SHMPI_CLAIMS,
               "message {%u, %u}", m.id, m.claim);
        /* one in four at once, as a posted receive would */
        if ((unit_rand(&r.rnd) & 3) == 0 || r.nheld == SHMPI_CLAIMS)
            match(&r, m);
        else
            r.held[r.nheld++] = m;
        /* most words in flight, so that the sender's search for a free
           one meets busy ones all the time */
        while (r.nheld > HELD) {
            int i = (int)(unit_rand(&r.rnd) % (uint64_t)r.nheld);
            if (settle(&r, r.held[i]))
                r.held[i] = r.held[--r.nheld];
        }
    }
    while (r.nheld > 0)
        match(&r, r.held[--r.nheld]);
    while (!try_send(&r.c, (struct msg){DONE, 0}))
        unit_pause(&polls);
}

static void body(int rank, void *arg)
{
    if (rank == 0)
        sender(arg);
    else
        receiver(arg);
}

int main(int argc, char **argv)
{
    unit_name_ = "unit_claim";
    struct shared *sh = unit_shared(sizeof *sh);
    int failed = unit_run(argc, argv, 2, body, sh);
    for (uint32_t id = 0; id < MESSAGES && !failed; id++) {
        int cancelled = sh->sent[id] == SENT_CANCELLED;
        int matched = sh->recv[id] == RECV_MATCHED;
        int dropped = sh->recv[id] == RECV_DROPPED;
        UCHECK(cancelled + matched == 1 && cancelled == dropped,
               "message %u: cancelled by the sender %d, matched %d, "
               "dropped %d by the receiver", id, cancelled, matched, dropped);
    }
    printf("unit_claim: %s\n", failed ? "FAILED" : "ok");
    return failed;
}
