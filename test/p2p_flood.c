/* p2p_flood: 100,000 messages of random size (0 B .. 1 MiB, mostly small), random tags and destinations, every payload checked, through mixes of Isend/Issend/Irecv/Iprobe and every Wait/Test form. */
/* shmpi-test: np=4,8 timeout=120 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Each rank draws its own schedule from a fixed seed (the environment
 * variable P2P_FLOOD_SEED picks another, for stress runs): for message seq,
 * the destination (any rank, itself included), the tag (0..99) and the
 * size.  Every rank replays every rank's schedule, so a receiver knows
 * how many messages to expect from each source and, for each message,
 * its tag and size; the counts are also exchanged through MPI first and
 * compared with the replay.  The payload is a pseudo-random stream
 * seeded by (src, seq), with (src, seq) in its first 8 bytes when it is
 * that long; a shorter one is matched to the oldest unreceived message of
 * that source, tag and size whose bytes agree.  Every message must
 * arrive exactly once with the right tag, size and bytes.
 *
 * No deadlock by construction: sends are all nonblocking, receives are
 * MPI_ANY_SOURCE/MPI_ANY_TAG (never more posted than messages still due)
 * or exact receives of a message Iprobe found (only when no other
 * receive is pending).  Waitany and Waitsome, over every request, are
 * always safe: a message in flight to a rank always finds a receive
 * posted there, so something completes somewhere.  Waiting for one
 * particular request is not: an Issend to a rank whose receives are all
 * taken, or to itself, completes only once that rank posts more, which
 * it may not do while it waits the same way.  So Wait and Waitall cover
 * only the receives, and only once all of this rank's sends have started
 * (until then the message a receive waits for may be one that a rank
 * blocked the same way has not sent yet).  Which call completes requests is drawn
 * at random among Waitany, Waitsome, Waitall, Wait, Testany, Testsome,
 * Testall and Test, over arrays with MPI_REQUEST_NULL holes.
 */
#include "check.h"

#include <stdint.h>

#define TOTAL 100000   /* messages in the whole job */
#define SWIN 16        /* send requests in flight per rank */
#define RWIN 8         /* receive requests posted per rank */
#define MAXMSG (1 << 20)

struct msg {
    int dst, tag, size;
};

static int rank, size, per_rank;
static struct msg **sched;   /* sched[src][seq] */

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return x;
}

static uint64_t seed = 0x5eed0000ull; /* P2P_FLOOD_SEED varies it */

static void make_schedule(int src)
{
    uint64_t st = mix(seed + (uint64_t)src);
    sched[src] = malloc(sizeof(struct msg) * (size_t)per_rank);
    CHECK(sched[src], "malloc");
    for (int i = 0; i < per_rank; i++) {
        uint64_t r = st = mix(st + 0x9e3779b97f4a7c15ull);
        struct msg *m = &sched[src][i];
        m->dst = (int)(r % (uint64_t)size);
        m->tag = (int)((r >> 16) % 100);
        int p = (int)((r >> 24) % 1000);
        uint64_t u = r >> 34;
        if (p < 600)
            m->size = (int)(u % 65);                    /* 0..64 */
        else if (p < 900)
            m->size = 65 + (int)(u % (4096 - 64));      /* ..4 KiB */
        else if (p < 980)
            m->size = 4097 + (int)(u % (65536 - 4096)); /* ..64 KiB */
        else if (p < 998)
            m->size = 65537 + (int)(u % (262144 - 65536));
        else
            m->size = 262145 + (int)(u % (MAXMSG - 262144));
    }
}

static void payload(unsigned char *b, int src, int seq, int n)
{
    uint64_t x = mix(((uint64_t)src << 32) | (uint32_t)seq);
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        x = mix(x + 0x9e3779b97f4a7c15ull);
        memcpy(b + i, &x, 8);
    }
    x = mix(x + 0x9e3779b97f4a7c15ull);
    for (; i < n; i++, x >>= 8)
        b[i] = (unsigned char)x;
    if (n >= 8) {
        uint32_t h[2] = {(uint32_t)src, (uint32_t)seq};
        memcpy(b, h, 8);
    }
}

/* ---------------------------------------------------------------- state */
static unsigned char **recvd;     /* recvd[src][seq]: 1 once received */
static int *due_from;             /* messages still due from each source */
static long due;                  /* in total */
static unsigned char *scratch;
static long checked;

static void check_message(const MPI_Status *st, const unsigned char *b)
{
    int src = st->MPI_SOURCE, n = -1;
    CHECK(src >= 0 && src < size, "status source %d", src);
    CHECK_MPI(MPI_Get_count(st, MPI_BYTE, &n));
    CHECK(n >= 0 && n <= MAXMSG, "count %d", n);
    int seq = -1;
    if (n >= 8) {
        uint32_t h[2];
        memcpy(h, b, 8);
        CHECK(h[0] == (uint32_t)src,
              "message from %d says it is from %u (seq %u)", src, h[0], h[1]);
        seq = (int)h[1];
        CHECK(seq >= 0 && seq < per_rank, "from %d: bad seq %d", src, seq);
        struct msg *m = &sched[src][seq];
        CHECK(m->dst == rank && m->size == n && m->tag == st->MPI_TAG,
              "from %d seq %d: dst %d size %d tag %d, expected dst %d "
              "size %d tag %d", src, seq, rank, n, st->MPI_TAG, m->dst,
              m->size, m->tag);
        payload(scratch, src, seq, n);
        CHECK(memcmp(scratch, b, (size_t)n) == 0,
              "from %d seq %d (%d bytes, tag %d): payload corrupt", src, seq,
              n, st->MPI_TAG);
    } else {
        for (int s = 0; s < per_rank; s++) {
            struct msg *m = &sched[src][s];
            if (recvd[src][s] || m->dst != rank || m->size != n ||
                m->tag != st->MPI_TAG)
                continue;
            payload(scratch, src, s, n);
            if (memcmp(scratch, b, (size_t)n) == 0) {
                seq = s;
                break;
            }
        }
        CHECK(seq >= 0,
              "from %d: a %d-byte message with tag %d that was never sent "
              "(or arrived twice)", src, n, st->MPI_TAG);
    }
    CHECK(!recvd[src][seq], "from %d seq %d: received twice", src, seq);
    recvd[src][seq] = 1;
    CHECK(due_from[src] > 0, "from %d: more messages than sent", src);
    due_from[src]--;
    due--;
    checked++;
}

/* requests: [0, SWIN) sends, [SWIN, SWIN + RWIN) receives */
#define NREQ (SWIN + RWIN)
static MPI_Request reqs[NREQ];
static unsigned char *bufs[NREQ];
/* Receive slots own one MAXMSG buffer each for the whole run: a fresh
 * 1 MiB malloc per receive made the test's own allocator, not MPI, its
 * cost under AddressSanitizer (a map, a shadow fill and a quarantine per
 * block: 120 s and more at np=4, 2026-11-30).  post() poisons the head
 * of the buffer, so a receive that wrote nothing cannot pass on what an
 * earlier message left there. */
static unsigned char *rbuf[NREQ];
#define POISON 64
static int next_send;             /* next seq of mine to send */
static int *my_sends;             /* seqs of my messages, in order */
static int n_my_sends;
static int posted_any, posted_exact;

static void completed(int i, const MPI_Status *st)
{
    CHECK(reqs[i] == MPI_REQUEST_NULL, "completed request %d is not null",
          i);
    if (i < SWIN) {
        free(bufs[i]);
        bufs[i] = NULL;
        return;
    }
    check_message(st, bufs[i]);
    bufs[i] = NULL;
}

static unsigned char *recv_buf(int i)
{
    memset(rbuf[i], 0xa5, POISON);
    return bufs[i] = rbuf[i];
}

static int free_slot(int lo, int hi)
{
    for (int i = lo; i < hi; i++)
        if (reqs[i] == MPI_REQUEST_NULL && !bufs[i])
            return i;
    return -1;
}

static uint64_t rng;
static unsigned rnd(unsigned n)
{
    rng = mix(rng + 0x9e3779b97f4a7c15ull);
    return (unsigned)(rng % n);
}

static void start_sends(void)
{
    int i;
    while (next_send < n_my_sends && (i = free_slot(0, SWIN)) >= 0) {
        int seq = my_sends[next_send++];
        struct msg *m = &sched[rank][seq];
        bufs[i] = malloc((size_t)m->size + 1);
        CHECK(bufs[i], "malloc");
        payload(bufs[i], rank, seq, m->size);
        if (rnd(16) == 0)
            CHECK_MPI(MPI_Issend(bufs[i], m->size, MPI_BYTE, m->dst, m->tag,
                                 MPI_COMM_WORLD, &reqs[i]));
        else
            CHECK_MPI(MPI_Isend(bufs[i], m->size, MPI_BYTE, m->dst, m->tag,
                                MPI_COMM_WORLD, &reqs[i]));
    }
}

static int pending_recvs(void)
{
    int n = 0;
    for (int i = SWIN; i < NREQ; i++)
        n += reqs[i] != MPI_REQUEST_NULL;
    return n;
}

static void post_recvs(void)
{
    int pend = pending_recvs(), i;
    /* sometimes: look first, then receive exactly what is there */
    if (pend == 0 && due > 0 && rnd(4) == 0) {
        int flag = 0;
        MPI_Status st;
        CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
                             &flag, &st));
        if (flag) {
            int n = -1;
            CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &n));
            CHECK(n >= 0 && n <= MAXMSG, "probed count %d", n);
            i = free_slot(SWIN, NREQ);
            CHECK_MPI(MPI_Irecv(recv_buf(i), n, MPI_BYTE, st.MPI_SOURCE,
                                st.MPI_TAG, MPI_COMM_WORLD, &reqs[i]));
            posted_exact++;
            return;
        }
    }
    while (pend < due && (i = free_slot(SWIN, NREQ)) >= 0) {
        CHECK_MPI(MPI_Irecv(recv_buf(i), MAXMSG, MPI_BYTE, MPI_ANY_SOURCE,
                            MPI_ANY_TAG, MPI_COMM_WORLD, &reqs[i]));
        posted_any++;
        pend++;
    }
}

static int active(void)
{
    int n = 0;
    for (int i = 0; i < NREQ; i++)
        n += reqs[i] != MPI_REQUEST_NULL;
    return n;
}

static long calls[8];

/* One completion call, drawn at random; blocking ones only when allowed. */
static void complete_some(int may_block)
{
    MPI_Status sts[NREQ];
    int idx[NREQ], n, flag, i;
    int op = (int)rnd(8);
    if (!may_block && (op == 2 || op == 3))
        op += 4; /* Waitall, Wait -> Testall, Test */
    if (active() == 0)
        return;
    calls[op]++;
    switch (op) {
    case 0: /* Waitany */
        CHECK_MPI(MPI_Waitany(NREQ, reqs, &i, &sts[0]));
        CHECK(i >= 0 && i < NREQ, "Waitany index %d", i);
        completed(i, &sts[0]);
        break;
    case 1: /* Waitsome */
        CHECK_MPI(MPI_Waitsome(NREQ, reqs, &n, idx, sts));
        CHECK(n >= 1 && n <= NREQ, "Waitsome outcount %d", n);
        for (int k = 0; k < n; k++)
            completed(idx[k], &sts[k]);
        break;
    case 2: { /* Waitall over the receives only (see below) */
        int was[NREQ];
        for (int k = SWIN; k < NREQ; k++)
            was[k] = reqs[k] != MPI_REQUEST_NULL;
        CHECK_MPI(MPI_Waitall(RWIN, reqs + SWIN, sts + SWIN));
        for (int k = SWIN; k < NREQ; k++)
            if (was[k])
                completed(k, &sts[k]);
        break;
    }
    case 3: /* Wait on one active receive, else Waitany */
        for (i = SWIN; i < NREQ && reqs[i] == MPI_REQUEST_NULL; i++)
            ;
        if (i < NREQ) {
            CHECK_MPI(MPI_Wait(&reqs[i], &sts[0]));
        } else {
            CHECK_MPI(MPI_Waitany(NREQ, reqs, &i, &sts[0]));
            CHECK(i >= 0 && i < NREQ, "Waitany index %d", i);
        }
        completed(i, &sts[0]);
        break;
    case 4: /* Testany */
        CHECK_MPI(MPI_Testany(NREQ, reqs, &i, &flag, &sts[0]));
        if (flag) {
            CHECK(i >= 0 && i < NREQ, "Testany index %d", i);
            completed(i, &sts[0]);
        } else {
            CHECK(i == MPI_UNDEFINED, "Testany: flag 0 but index %d", i);
        }
        break;
    case 5: /* Testsome */
        CHECK_MPI(MPI_Testsome(NREQ, reqs, &n, idx, sts));
        CHECK(n >= 0 && n <= NREQ, "Testsome outcount %d", n);
        for (int k = 0; k < n; k++)
            completed(idx[k], &sts[k]);
        break;
    case 6: { /* Testall */
        int was[NREQ];
        for (int k = 0; k < NREQ; k++)
            was[k] = reqs[k] != MPI_REQUEST_NULL;
        CHECK_MPI(MPI_Testall(NREQ, reqs, &flag, sts));
        if (flag) {
            for (int k = 0; k < NREQ; k++)
                if (was[k])
                    completed(k, &sts[k]);
        } else {
            for (int k = 0; k < NREQ; k++)
                CHECK(was[k] == (reqs[k] != MPI_REQUEST_NULL),
                      "Testall returned false but changed request %d", k);
        }
        break;
    }
    case 7: /* Test on a random active request */
        do
            i = (int)rnd(NREQ);
        while (reqs[i] == MPI_REQUEST_NULL);
        CHECK_MPI(MPI_Test(&reqs[i], &flag, &sts[0]));
        if (flag)
            completed(i, &sts[0]);
        break;
    }
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    per_rank = TOTAL / size;
    if (getenv("P2P_FLOOD_SEED"))
        seed = strtoull(getenv("P2P_FLOOD_SEED"), NULL, 0) << 16;
    rng = mix(0xabcdefull + seed + (uint64_t)rank);

    sched = malloc(sizeof *sched * (size_t)size);
    recvd = malloc(sizeof *recvd * (size_t)size);
    due_from = calloc((size_t)size, sizeof *due_from);
    my_sends = malloc(sizeof *my_sends * (size_t)per_rank);
    scratch = malloc(MAXMSG);
    CHECK(sched && recvd && due_from && my_sends && scratch, "malloc");
    int *counts = calloc((size_t)size, sizeof *counts);
    int *got = calloc((size_t)size, sizeof *got);
    CHECK(counts && got, "malloc");
    for (int s = 0; s < size; s++) {
        make_schedule(s);
        recvd[s] = calloc((size_t)per_rank, 1);
        CHECK(recvd[s], "malloc");
        for (int i = 0; i < per_rank; i++) {
            if (sched[s][i].dst == rank)
                due_from[s]++;
            if (s == rank)
                counts[sched[s][i].dst]++;
        }
    }
    for (int i = 0; i < per_rank; i++)
        my_sends[n_my_sends++] = i;

    /* exchange the counts: everyone tells everyone how many to expect */
    {
        MPI_Request *rq = malloc(sizeof *rq * 2 * (size_t)size);
        CHECK(rq, "malloc");
        for (int s = 0; s < size; s++)
            CHECK_MPI(MPI_Irecv(&got[s], 1, MPI_INT, s, 999999,
                                MPI_COMM_WORLD, &rq[s]));
        for (int d = 0; d < size; d++)
            CHECK_MPI(MPI_Isend(&counts[d], 1, MPI_INT, d, 999999,
                                MPI_COMM_WORLD, &rq[size + d]));
        CHECK_MPI(MPI_Waitall(2 * size, rq, MPI_STATUSES_IGNORE));
        free(rq);
        for (int s = 0; s < size; s++) {
            CHECK(got[s] == due_from[s],
                  "rank %d announced %d messages to me, its schedule has %d",
                  s, got[s], due_from[s]);
            due += due_from[s];
        }
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    }

    for (int i = 0; i < NREQ; i++)
        reqs[i] = MPI_REQUEST_NULL;
    for (int i = SWIN; i < NREQ; i++)
        CHECK(rbuf[i] = malloc(MAXMSG), "malloc");
    while (next_send < n_my_sends || due > 0 || active() > 0) {
        start_sends();
        post_recvs();
        complete_some(next_send == n_my_sends);
    }

    for (int s = 0; s < size; s++) {
        CHECK(due_from[s] == 0, "%d messages from %d never arrived",
              due_from[s], s);
        for (int i = 0; i < per_rank; i++)
            CHECK(sched[s][i].dst != rank || recvd[s][i],
                  "message %d from %d never arrived", i, s);
    }
    /* nothing more may be waiting */
    int flag = 1;
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag,
                         MPI_STATUS_IGNORE));
    CHECK(!flag, "a message arrived that was never sent");

    if (getenv("P2P_FLOOD_VERBOSE"))
        printf("rank %d: %ld messages checked (%d exact receives after "
               "Iprobe, %d wildcard); calls Waitany %ld Waitsome %ld "
               "Waitall %ld Wait %ld Testany %ld Testsome %ld Testall %ld "
               "Test %ld\n", rank, checked, posted_exact, posted_any,
               calls[0], calls[1], calls[2], calls[3], calls[4], calls[5],
               calls[6], calls[7]);
    for (int s = 0; s < size; s++) {
        free(sched[s]);
        free(recvd[s]);
    }
    free(sched); free(recvd); free(due_from); free(my_sends); free(scratch);
    free(counts); free(got);
    for (int i = SWIN; i < NREQ; i++)
        free(rbuf[i]);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
