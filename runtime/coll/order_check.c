/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * order_check.c - the check mode's comparison of the collectives the
 * members of an intracommunicator call (order_check.h): "all processes
 * ... call the same collective operations in the same order" with the
 * same root and op, and amounts of data that match (MPI-3.1 5.1; 5.12
 * for the nonblocking ones, which match neither blocking ones nor the
 * persistent ones of MPI-4.0 6.13).  Shared memory often forgives a
 * mismatch for a while (an MPI_Bcast against an MPI_Reduce of the same
 * size moves bytes and returns), or hangs without saying why.
 *
 * What is compared, per call on a communicator with a collective area
 * (coll.h): which call (the form counts: MPI_Bcast, MPI_Ibcast and
 * MPI_Bcast_init are three; the _c form of MPI-4.0 is its call's), the
 * root of a rooted call, the op of a reduction (its code: two
 * user-defined ops are not told apart), and the bytes the standard makes
 * equal: count x type size of Bcast, Reduce, Allreduce, Scan, Exscan and
 * Reduce_scatter_block (per block); the sum of Reduce_scatter's
 * recvcounts; the block of Allgather and Alltoall; for Gather and
 * Scatter each member's block against the root's recvcount (sendcount)
 * x type size.  The v and w forms compare call and root only.  Not
 * compared: intercommunicators, communicators without an area (one
 * process, all areas taken: shmpi_coll(7)), and members more collectives
 * apart than a ring holds (below).
 *
 * THE RINGS.  They live in the part of the area the layout leaves
 * between the last control line and the first data slot (area.c:
 * "ctl line[N] | pad to a page"), which is reserved with the head when
 * the area is taken and zero in a fresh area - so the mode takes no
 * memory of its own and changes no layout.  A communicator of n members
 * gives each member a ring of K = pad / (n x 24 bytes) descriptors (77
 * in a job of 2, 17 for MPI_COMM_WORLD of a job of 8; none when the
 * control lines end less than 24 x n bytes before a page, as at np = 60:
 * then nothing is compared, which the man page says).  Member m writes
 * only its ring; the descriptor of its collective s is entry s mod K.
 *
 * THE PROTOCOL.  Each member numbers its collectives on the
 * communicator (struct shmpi_coll.order_seq, private).  At a call it
 *  1. publishes its descriptor as a seqlock: seq := 0 (relaxed), release
 *     fence, the fields (relaxed), seq := s (release) - a reader that
 *     loaded seq = s with acquire, read the fields, and after an acquire
 *     fence still loads seq = s, read the fields of s whole;
 *  2. issues a seq_cst fence, then reads the other members' entries for
 *     s, lowest rank first, and compares with the first one published
 *     (seq = s) that was not refused.
 * Two members that publish at the same time both fence between their
 * store and their loads, so in the fences' single total order the later
 * one's loads see the earlier one's store: of any two members, the
 * second to arrive sees the first, and compares.  Since every member
 * compares with one that had already published, the published
 * descriptors of s are all equal or a mismatch was reported, and each
 * newcomer is compared with them: no mismatch goes unseen but for an
 * entry already overwritten (its owner ran K collectives ahead - then
 * that entry is skipped, never waited for: a member waiting here for a
 * slower one could deadlock a correct program).  The comparison happens
 * as the call begins, before the member can block in it, so the line is
 * out before a deadlock report ends the job.
 *
 * One line per communicator: both members of a pair may see each other,
 * and once one member called another collective every later number may
 * pair different calls, so the first to report sets the head's
 * order_reported from 0 to s (a CAS: one winner), and from then on
 * nobody compares on the communicator (a relaxed load: a member that
 * misses the store compares once more and loses the CAS).
 *
 * A member whose arguments were wrong (rc) publishes its entry as
 * refused: it matches anything, so that its error, already raised, is
 * not reported again and the numbers stay aligned (coll.h).
 */
#include "coll/order_check.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "coll/coll.h"
#include "datatypes/ops.h"

struct order_desc {
    _Atomic uint64_t seq;      /* 0: being written (or never) */
    _Atomic uint64_t bytes;    /* ANY_BYTES: not compared */
    _Atomic int32_t root;      /* SHMPI_ORDER_NO_ROOT: none */
    _Atomic uint16_t call;     /* REFUSED, or 1 + 3 x kind + form */
    _Atomic uint16_t op;       /* 0: none, else code + 1 */
};
_Static_assert(sizeof(struct order_desc) == 24, "24 bytes a descriptor");

#define REFUSED 0
#define ANY_BYTES UINT64_MAX /* amounts not compared */

/* The collectives, by kind; a call is a kind and a form (0: blocking, 1:
   nonblocking, 2: persistent). */
static const char *const kinds[] = {
    "Barrier", "Bcast", "Gather", "Gatherv", "Scatter", "Scatterv",
    "Allgather", "Allgatherv", "Alltoall", "Alltoallv", "Alltoallw",
    "Reduce", "Allreduce", "Reduce_scatter", "Reduce_scatter_block", "Scan",
    "Exscan"};
#define NKINDS (sizeof kinds / sizeof kinds[0])

static void call_name(unsigned call, char *out, size_t len)
{
    unsigned k = (call - 1) / 3, form = (call - 1) % 3;
    const char *b = kinds[k];
    if (form == 0)
        snprintf(out, len, "MPI_%s", b);
    else if (form == 1)
        snprintf(out, len, "MPI_I%c%s", tolower((unsigned char)b[0]), b + 1);
    else
        snprintf(out, len, "MPI_%s_init", b);
}

/* fn's call (its _c form is the same call); REFUSED if not a collective
   of the table, which then is compared with nothing. */
static uint16_t call_of(const char *fn)
{
    char want[48], name[48];
    size_t n = strlen(fn);
    if (n >= sizeof want)
        return REFUSED;
    memcpy(want, fn, n + 1);
    if (n > 2 && strcmp(want + n - 2, "_c") == 0)
        want[n - 2] = '\0';
    for (unsigned call = 1; call <= 3 * NKINDS; call++) {
        call_name(call, name, sizeof name);
        if (strcmp(name, want) == 0)
            return (uint16_t)call;
    }
    return REFUSED;
}

/* A predefined op's name by its code (ops.h: the order of mpi.h). */
static const char *op_name(unsigned op)
{
    static const MPI_Op predefined[] = {
        MPI_MAX,  MPI_MIN,  MPI_SUM,    MPI_PROD,   MPI_LAND,
        MPI_BAND, MPI_LOR,  MPI_BOR,    MPI_LXOR,   MPI_BXOR,
        MPI_MAXLOC, MPI_MINLOC, MPI_REPLACE, MPI_NO_OP};
    if (op - 1 < sizeof predefined / sizeof predefined[0])
        return predefined[op - 1]->name;
    return "a user-defined op";
}

/* Where the rings are: entries per member (0: no room), and member m's. */
static unsigned ring_entries(const struct shmpi_coll *c)
{
    const struct shmpi_arena_header *a = shmpi_proc.arena;
    uint64_t at = SHMPI_COLL_HEAD_BYTES +
                  (uint64_t)a->nranks * SHMPI_COLL_CTL_BYTES;
    return (unsigned)((a->coll_data_offset - at) /
                      ((uint64_t)c->size * sizeof(struct order_desc)));
}

static struct order_desc *entry(struct shmpi_coll *c, unsigned k, int m,
                                uint64_t s)
{
    const struct shmpi_arena_header *a = shmpi_proc.arena;
    struct order_desc *ring =
        (struct order_desc *)(c->area + SHMPI_COLL_HEAD_BYTES +
                              (uint64_t)a->nranks * SHMPI_COLL_CTL_BYTES);
    return ring + (uint64_t)m * k + s % k;
}

struct order {                 /* a descriptor as read */
    uint64_t bytes;
    int root;
    unsigned call, op;
};

static void publish(struct order_desc *d, uint64_t s, const struct order *o)
{
    atomic_store_explicit(&d->seq, 0, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    atomic_store_explicit(&d->bytes, o->bytes, memory_order_relaxed);
    atomic_store_explicit(&d->root, o->root, memory_order_relaxed);
    atomic_store_explicit(&d->call, (uint16_t)o->call, memory_order_relaxed);
    atomic_store_explicit(&d->op, (uint16_t)o->op, memory_order_relaxed);
    atomic_store_explicit(&d->seq, s, memory_order_release);
}

/* 1 if d holds collective s whole, read into *o. */
static int read_entry(struct order_desc *d, uint64_t s, struct order *o)
{
    if (atomic_load_explicit(&d->seq, memory_order_acquire) != s)
        return 0;
    o->bytes = atomic_load_explicit(&d->bytes, memory_order_relaxed);
    o->root = atomic_load_explicit(&d->root, memory_order_relaxed);
    o->call = atomic_load_explicit(&d->call, memory_order_relaxed);
    o->op = atomic_load_explicit(&d->op, memory_order_relaxed);
    atomic_thread_fence(memory_order_acquire);
    return atomic_load_explicit(&d->seq, memory_order_relaxed) == s;
}

static void describe(const struct order *o, char *out, size_t len)
{
    char name[48];
    call_name(o->call, name, sizeof name);
    int n = snprintf(out, len, "%s(", name);
    const char *sep = "";
    if (o->root != SHMPI_ORDER_NO_ROOT && n >= 0 && (size_t)n < len) {
        n += snprintf(out + n, len - (size_t)n, "root %d", o->root);
        sep = ", ";
    }
    if (o->op && n >= 0 && (size_t)n < len) {
        n += snprintf(out + n, len - (size_t)n, "%s%s", sep, op_name(o->op));
        sep = ", ";
    }
    if (o->bytes != ANY_BYTES && n >= 0 && (size_t)n < len)
        n += snprintf(out + n, len - (size_t)n, "%s%llu bytes", sep,
                      (unsigned long long)o->bytes);
    if (n >= 0 && (size_t)n < len)
        snprintf(out + n, len - (size_t)n, ")");
}

/* The rule the two descriptors break: 0 if none. */
static int differ(const struct order *a, const struct order *b)
{
    if (a->call != b->call)
        return 1;
    if (a->root != b->root)
        return 2;
    if (a->op != b->op)
        return 3;
    return a->bytes != ANY_BYTES &&
                   b->bytes != ANY_BYTES && a->bytes != b->bytes
               ? 4
               : 0;
}

static const char *const what[] = {
    NULL, "members called different collectives at the same point",
    "members called a collective with different roots",
    "members called a reduction with different ops",
    "members called a collective with amounts of data that do not match"};
static const char *const fix[] = {
    NULL,
    "every member of the communicator calls the same collectives in the "
    "same order (blocking, nonblocking and persistent forms do not match "
    "each other)",
    "pass the same root on every member",
    "pass the same op on every member",
    "make count x type size agree on every member (gather, scatter: each "
    "member's block with the root's recvcount or sendcount)"};

static void report(MPI_Comm comm, struct shmpi_coll *c, uint64_t s,
                   int rule, int ref, const struct order *theirs,
                   const struct order *mine)
{
    struct shmpi_coll_head *h = (struct shmpi_coll_head *)c->area;
    uint64_t none = 0;
    if (!atomic_compare_exchange_strong_explicit(&h->order_reported, &none,
                                                 s, memory_order_relaxed,
                                                 memory_order_relaxed))
        return; /* said already, by this member or another */
    char a[160], b[160], label[MPI_MAX_OBJECT_NAME];
    describe(theirs, a, sizeof a);
    describe(mine, b, sizeof b);
    if (shmpi_core_name_get(comm->name, label) <= 0)
        snprintf(label, sizeof label, "a communicator");
    shmpi_core_check_report(
        what[rule], mine->call % 3 == 2 ? "5.12" : "5.1", fix[rule],
        "rank %d: %s; rank %d: %s; collective %llu on %s", ref, a, c->rank,
        b, (unsigned long long)s, label);
}

void shmpi_coll_order_check(const char *fn, MPI_Comm comm, int rc, int root,
                            MPI_Op op, MPI_Count count, MPI_Datatype type)
{
    if (rc != MPI_SUCCESS && !shmpi_comm_ok(comm))
        return; /* not a call on a communicator at all */
    struct shmpi_coll *c = comm->coll;
    if (!c || comm->is_inter)
        return;
    unsigned k = ring_entries(c);
    uint64_t s = ++c->order_seq;
    if (k == 0)
        return;
    /* a refused call's op and type may be no objects at all: not read */
    struct order mine = {ANY_BYTES, root, REFUSED, 0};
    if (rc == MPI_SUCCESS) {
        mine.call = call_of(fn);
        mine.op = op == MPI_OP_NULL ? 0 : (unsigned)op->code + 1;
        if (type)
            mine.bytes = (uint64_t)count * (uint64_t)type->size;
    }
    publish(entry(c, k, c->rank, s), s, &mine);
    struct shmpi_coll_head *h = (struct shmpi_coll_head *)c->area;
    if (mine.call == REFUSED ||
        atomic_load_explicit(&h->order_reported, memory_order_relaxed))
        return;
    /* the other half of the pairing the top comment argues */
    atomic_thread_fence(memory_order_seq_cst);
    for (int m = 0; m < c->size; m++) {
        struct order theirs;
        if (m == c->rank || !read_entry(entry(c, k, m, s), s, &theirs) ||
            theirs.call == REFUSED)
            continue;
        int rule = differ(&theirs, &mine);
        if (rule)
            report(comm, c, s, rule, m, &theirs, &mine);
        return;
    }
}
