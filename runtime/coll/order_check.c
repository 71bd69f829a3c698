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
 * What is compared, per call on every communicator of more than one
 * process - intra or inter, with a collective area or without, of any
 * size, topology communicators' neighborhood collectives included:
 * which call (the form counts: MPI_Bcast, MPI_Ibcast and MPI_Bcast_init
 * are three; the _c form of MPI-4.0 is its call's), the root of a
 * rooted call, the op of a reduction (its code: two user-defined ops
 * are not told apart), and where the standard makes them equal the
 * bytes and the type signature (datatypes/sig.h: the basic types in
 * order, so 4 MPI_INT and 4 MPI_FLOAT differ; MPI_BYTE or MPI_PACKED
 * matches any) of count x type in Bcast, Reduce, Allreduce, Scan,
 * Exscan and Reduce_scatter_block (per block); of the sum of
 * Reduce_scatter's recvcounts; of the block of Allgather and Alltoall;
 * for Gather and Scatter of each member's block against the root's
 * recvcount (sendcount).  The v and w forms and the neighborhood
 * collectives compare the call only (and root): their amounts differ by
 * design.  On an intercommunicator (MPI-3.1 5.2.2) the root is taken as
 * the process it names - MPI_ROOT the caller, a rank one of the remote
 * group, MPI_PROC_NULL anyone - and amounts are compared only where
 * both groups give the same one (Bcast, Reduce, Allreduce, Gather,
 * Scatter; not by MPI_PROC_NULL callers, whose arguments are ignored).
 *
 * THE RINGS.  Under the mode MPI_Init takes the last collective area of
 * the arena for the check (shmpi_coll_order_open; no communicator gets
 * it then) and lays it out as
 *     reported[data_offset / 8] | ring[nranks]
 * a ring per process of the job, written by that process only, for its
 * collectives on every communicator: 64 KiB (a data slot, if smaller),
 * 910 records of 72 bytes in 14 runs of 65.  The record of collective s
 * on the communicator with context x is entry s mod 65 of run (x / 2)
 * mod 14: contexts come in pairs, so the first 14 communicators of a
 * program have runs of their own, and later ones share them.  Contexts
 * are never reused in a job (comm/comm_create.c), so (x, s) names one
 * call.  (A first layout, entry (s + x * 2654435761) mod 455, let
 * MPI_Finalize's barrier on MPI_COMM_WORLD overwrite the record of the
 * collective just before it on a dup, and the mismatch there went
 * unseen in 3 runs of 4.)
 * Every process reserves the whole of it (fallocate) before its first
 * collective, so no process touches a page nobody reserved; the mode
 * costs the job one area and nranks x 64 KiB of /dev/shm, and nothing
 * without it.  A process without it (SHMPI_COLL_AREAS = 1, a job of one
 * process, /dev/shm full at MPI_Init) compares nothing.  The mode must
 * be on in every process of the job or in none (mpirun --check): a
 * process without it could give the area to a communicator.
 *
 * THE PROTOCOL.  Each process numbers its collectives per communicator
 * (a table of its own, by context: `seqs`).  At a call it
 *  1. publishes its record in entry (x, s) of its ring as a seqlock:
 *     seq := 0 (relaxed), release fence, the fields (relaxed), seq :=
 *     tag(x, s) (release) - a reader that loaded tag(x, s) with acquire,
 *     read the fields, and after an acquire fence still loads tag(x, s),
 *     read the fields of (x, s) whole: the writer stores that tag once
 *     (a record of one call is written once), so no rewrite between the
 *     two loads can bring it back.  The threads
 *     of one process write its ring under `lock`, one at a time;
 *  2. issues a seq_cst fence, then reads the entry (x, s) of every other
 *     member's ring, and compares its record with each one published.
 * Two members that publish at the same time both fence between their
 * store and their loads, so in the fences' single total order the later
 * one's loads see the earlier one's store: of any two members, the
 * second to arrive sees the first, and compares.  Comparing with every
 * published record (not one: MPI_PROC_NULL's root matches any, so
 * "equal" is no equivalence) therefore compares every pair of members
 * but one whose record was overwritten first: its owner ran 65
 * collectives ahead on the communicator, or a collective of another
 * communicator of the same run whose number fell on the same entry
 * since - then that record
 * is skipped, never waited for (a member waiting here for a slower one
 * could deadlock a correct program).  The comparison happens as the
 * call begins, before the member can block in it, so the line is out
 * before a deadlock report ends the job.
 *
 * One line per communicator: both members of a pair may see each other,
 * and once one member called another collective every later number may
 * pair different calls, so the first to report inserts x + 1 into the
 * shared table `reported` (open addressing, a CAS from 0 per cell: one
 * winner), and from then on nobody compares on the communicator (relaxed
 * loads: a member that misses the insert compares once more and loses
 * the CAS).  A full table (512 communicators reported at np = 2) lets
 * the next ones report from both sides.
 *
 * A member whose arguments were wrong (rc) publishes its entry as
 * refused: it matches anything, so that its error, already raised, is
 * not reported again and the numbers stay aligned (coll.h).
 */
#include "coll/order_check.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "coll/coll.h"
#include "core/lock.h"
#include "datatypes/ops.h"
#include "datatypes/sig.h"

#define TYPE_WORDS 4           /* a type's name, 32 bytes */
struct order_desc {
    _Atomic uint64_t seq;      /* tag(x, s); 0: being written (or never) */
    _Atomic uint64_t sig;      /* ANY: not compared */
    _Atomic uint64_t bytes;    /* ANY: not compared */
    _Atomic uint32_t context;
    _Atomic int32_t root;      /* as given; SHMPI_ORDER_NO_ROOT: none */
    _Atomic int32_t root_world; /* the process it names; ANY_ROOT: any */
    _Atomic uint16_t call;     /* REFUSED, or 1 + 3 x kind + form */
    _Atomic uint16_t op;       /* 0: none, else code + 1 */
    _Atomic uint64_t type[TYPE_WORDS];
};
_Static_assert(sizeof(struct order_desc) == 72, "72 bytes a record");

#define REFUSED 0
#define ANY UINT64_MAX         /* an amount or signature not compared */
#define ANY_ROOT (-2)          /* MPI_PROC_NULL of an intercommunicator */
#define RING_MAX (64u * 1024) /* a ring, if a data slot is as large */
#define RUN 64                 /* records of a communicator in a ring */

/* The collectives, by kind; a call is a kind and a form (0: blocking, 1:
   nonblocking, 2: persistent). */
static const char *const kinds[] = {
    "Barrier", "Bcast", "Gather", "Gatherv", "Scatter", "Scatterv",
    "Allgather", "Allgatherv", "Alltoall", "Alltoallv", "Alltoallw",
    "Reduce", "Allreduce", "Reduce_scatter", "Reduce_scatter_block", "Scan",
    "Exscan", "Neighbor_allgather", "Neighbor_allgatherv",
    "Neighbor_alltoall", "Neighbor_alltoallv", "Neighbor_alltoallw"};
#define NKINDS (sizeof kinds / sizeof kinds[0])
#define FIRST_NEIGHBOR 17     /* kinds[17]: Neighbor_allgather */
/* kinds whose amounts both groups of an intercommunicator give alike */
#define INTER_AMOUNTS "|Bcast|Gather|Scatter|Reduce|Allreduce|"

/* This process's view of the check area (NULL: nothing compared), and
   what its threads share: the numbers per context, its ring. */
static unsigned char *check_area;
/* a ring: its bytes, its runs and the records of a run */
static uint64_t ring_bytes, ring_runs, run_k;
static struct shmpi_core_lock lock;
static struct seq_cell {
    uint32_t key;              /* context + 1; 0: empty */
    uint64_t seq;
} *seqs;
static size_t seqs_cap, seqs_used;

void shmpi_coll_order_open(void)
{
    struct shmpi_arena_header *a = shmpi_proc.arena;
    char err[192];
    if (a->coll_areas < 2 || a->nranks < 2)
        return;
    uint32_t index = a->coll_areas - 1;
    /* the bit stays set for the job: take_bit (area.c) never hands the
       area to a communicator of a process that ran this */
    atomic_fetch_or_explicit(&a->coll_used[index / 64], 1ull << (index % 64),
                             memory_order_relaxed);
    /* the rings lie where the data slots would: in nranks slots */
    ring_bytes = a->coll_slot_bytes < RING_MAX ? a->coll_slot_bytes
                                               : RING_MAX;
    uint64_t k = ring_bytes / sizeof(struct order_desc);
    ring_runs = k >= 2 * RUN ? k / RUN : 1;
    run_k = k / ring_runs;
    uint64_t bytes = a->coll_data_offset + (uint64_t)a->nranks * ring_bytes;
    uint64_t at = shmpi_arena_area_offset(a, index);
    if (shmpi_arena_reserve(shmpi_proc.arena_fd, at, bytes,
                            "the check mode's collective records", err,
                            sizeof err) != 0)
        return;
    check_area = shmpi_arena_map(shmpi_proc.arena_fd, at, bytes,
                                 "the check mode's collective records", err,
                                 sizeof err);
}

/* The next number of a collective on the communicator of context x
   (under lock); 0 when out of memory (then not compared). */
static uint64_t next_seq(uint32_t x)
{
    if (2 * (seqs_used + 1) > seqs_cap) {
        size_t cap = seqs_cap ? 2 * seqs_cap : 64;
        struct seq_cell *t = calloc(cap, sizeof *t);
        if (!t)
            return 0;
        for (size_t i = 0; i < seqs_cap; i++)
            for (size_t j = seqs[i].key * 2654435761u; seqs[i].key;
                 j++)
                if (!t[j % cap].key) {
                    t[j % cap] = seqs[i];
                    break;
                }
        free(seqs);
        seqs = t;
        seqs_cap = cap;
    }
    size_t j = (x + 1u) * 2654435761u;
    while (seqs[j % seqs_cap].key && seqs[j % seqs_cap].key != x + 1u)
        j++;
    struct seq_cell *cell = &seqs[j % seqs_cap];
    if (!cell->key) {
        cell->key = x + 1u;
        seqs_used++;
    }
    return ++cell->seq;
}

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

/* World rank w's record of collective s on context x. */
static struct order_desc *entry(int w, uint32_t x, uint64_t s)
{
    struct order_desc *ring =
        (struct order_desc *)(check_area +
                              shmpi_proc.arena->coll_data_offset +
                              (uint64_t)w * ring_bytes);
    return ring + (x / 2) % ring_runs * run_k + s % run_k;
}

/* The seqlock word of collective s on context x: unique in the job, so
   that a reader never takes the fields of one record for another's (a
   word of s alone let a record of another communicator with the same
   number, rewritten between a reader's two loads, pass as whole: a
   false report in test/coll_interleave at np = 7). */
static uint64_t tag(uint32_t x, uint64_t s)
{
    return (uint64_t)x << 40 | (s & ((1ull << 40) - 1));
}

struct order {                 /* a record as read */
    uint64_t sig, bytes;
    uint32_t context;
    int root, root_world;
    unsigned call, op;
    char type[TYPE_WORDS * 8];
};

static void publish(struct order_desc *d, uint64_t s, const struct order *o)
{
    uint64_t w[TYPE_WORDS];
    memcpy(w, o->type, sizeof w);
    atomic_store_explicit(&d->seq, 0, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    atomic_store_explicit(&d->sig, o->sig, memory_order_relaxed);
    atomic_store_explicit(&d->bytes, o->bytes, memory_order_relaxed);
    atomic_store_explicit(&d->context, o->context, memory_order_relaxed);
    atomic_store_explicit(&d->root, o->root, memory_order_relaxed);
    atomic_store_explicit(&d->root_world, o->root_world,
                          memory_order_relaxed);
    atomic_store_explicit(&d->call, (uint16_t)o->call, memory_order_relaxed);
    atomic_store_explicit(&d->op, (uint16_t)o->op, memory_order_relaxed);
    for (int i = 0; i < TYPE_WORDS; i++)
        atomic_store_explicit(&d->type[i], w[i], memory_order_relaxed);
    atomic_store_explicit(&d->seq, tag(o->context, s), memory_order_release);
}

/* 1 if d holds collective s of context x whole, read into *o. */
static int read_entry(struct order_desc *d, uint32_t x, uint64_t s,
                      struct order *o)
{
    uint64_t w[TYPE_WORDS];
    if (atomic_load_explicit(&d->seq, memory_order_acquire) != tag(x, s))
        return 0;
    o->sig = atomic_load_explicit(&d->sig, memory_order_relaxed);
    o->bytes = atomic_load_explicit(&d->bytes, memory_order_relaxed);
    o->context = atomic_load_explicit(&d->context, memory_order_relaxed);
    o->root = atomic_load_explicit(&d->root, memory_order_relaxed);
    o->root_world = atomic_load_explicit(&d->root_world, memory_order_relaxed);
    o->call = atomic_load_explicit(&d->call, memory_order_relaxed);
    o->op = atomic_load_explicit(&d->op, memory_order_relaxed);
    for (int i = 0; i < TYPE_WORDS; i++)
        w[i] = atomic_load_explicit(&d->type[i], memory_order_relaxed);
    atomic_thread_fence(memory_order_acquire);
    if (atomic_load_explicit(&d->seq, memory_order_relaxed) != tag(x, s))
        return 0;
    memcpy(o->type, w, sizeof w);
    o->type[sizeof o->type - 1] = '\0';
    return 1;
}

static void describe(const struct order *o, int with_type, char *out,
                     size_t len)
{
    char name[48];
    call_name(o->call, name, sizeof name);
    int n = snprintf(out, len, "%s(", name);
    const char *sep = "";
    if (o->root != SHMPI_ORDER_NO_ROOT && n >= 0 && (size_t)n < len) {
        if (o->root == MPI_ROOT || o->root == MPI_PROC_NULL)
            n += snprintf(out + n, len - (size_t)n, "root %s",
                          o->root == MPI_ROOT ? "MPI_ROOT" : "MPI_PROC_NULL");
        else
            n += snprintf(out + n, len - (size_t)n, "root %d", o->root);
        sep = ", ";
    }
    if (o->op && n >= 0 && (size_t)n < len) {
        n += snprintf(out + n, len - (size_t)n, "%s%s", sep, op_name(o->op));
        sep = ", ";
    }
    if (o->bytes != ANY && n >= 0 && (size_t)n < len)
        n += snprintf(out + n, len - (size_t)n, "%s%llu bytes%s%s", sep,
                      (unsigned long long)o->bytes,
                      with_type ? " of " : "", with_type ? o->type : "");
    if (n >= 0 && (size_t)n < len)
        snprintf(out + n, len - (size_t)n, ")");
}

static int agree(uint64_t a, uint64_t b)
{
    return a == ANY || b == ANY || a == b;
}

/* The rule the two records break: 0 if none. */
static int differ(const struct order *a, const struct order *b)
{
    if (a->call != b->call)
        return 1;
    if (a->root_world != b->root_world && a->root_world != ANY_ROOT &&
        b->root_world != ANY_ROOT)
        return 2;
    if (a->op != b->op)
        return 3;
    if (!agree(a->bytes, b->bytes))
        return 4;
    return agree(a->sig, b->sig) ? 0 : 5;
}

static const char *const what[] = {
    NULL, "members called different collectives at the same point",
    "members called a collective with different roots",
    "members called a reduction with different ops",
    "members called a collective with amounts of data that do not match",
    "members called a collective with type signatures that do not match"};
static const char *const fix[] = {
    NULL,
    "every member of the communicator calls the same collectives in the "
    "same order (blocking, nonblocking and persistent forms do not match "
    "each other)",
    "pass the same root on every member",
    "pass the same op on every member",
    "make count x type size agree on every member (gather, scatter: each "
    "member's block with the root's recvcount or sendcount)",
    "give every member the basic types of the root's (count, datatype), in "
    "the same order (gather, scatter: each member's block with the root's "
    "recvtype or sendtype)"};

/* Insert context x into the shared table of communicators reported:
   1 if this call did (it reports), 0 if it was there. */
static int claim_report(uint32_t x)
{
    _Atomic uint64_t *t = (_Atomic uint64_t *)check_area;
    size_t n = shmpi_proc.arena->coll_data_offset / sizeof *t;
    for (size_t i = 0, j = x * 2654435761u; i < n; i++, j++) {
        uint64_t none = 0;
        if (atomic_compare_exchange_strong_explicit(
                &t[j % n], &none, (uint64_t)x + 1, memory_order_relaxed,
                memory_order_relaxed))
            return 1;
        if (none == (uint64_t)x + 1)
            return 0;
    }
    return 1; /* full: say it, perhaps twice */
}

static int reported(uint32_t x)
{
    _Atomic uint64_t *t = (_Atomic uint64_t *)check_area;
    size_t n = shmpi_proc.arena->coll_data_offset / sizeof *t;
    for (size_t i = 0, j = x * 2654435761u; i < n; i++, j++) {
        uint64_t v = atomic_load_explicit(&t[j % n], memory_order_relaxed);
        if (v == 0)
            return 0;
        if (v == (uint64_t)x + 1)
            return 1;
    }
    return 0;
}

/* Where the standard says it: 5.1 and 5.12 (nonblocking), 7.6 and 7.7
   for the neighborhood collectives. */
static const char *section(unsigned call)
{
    int nonblocking = (call - 1) % 3 == 1;
    if ((call - 1) / 3 >= FIRST_NEIGHBOR)
        return nonblocking ? "7.7" : "7.6";
    return nonblocking ? "5.12" : "5.1";
}

static void report(MPI_Comm comm, uint64_t s, int rule, const char *ref,
                   const struct order *theirs, const struct order *mine)
{
    if (!claim_report(mine->context))
        return; /* said already, by this member or another */
    char a[200], b[200], label[MPI_MAX_OBJECT_NAME];
    describe(theirs, rule == 5, a, sizeof a);
    describe(mine, rule == 5, b, sizeof b);
    if (shmpi_core_name_get(comm->name, label) <= 0)
        snprintf(label, sizeof label, "a communicator");
    shmpi_core_check_report(
        what[rule], section(mine->call), fix[rule],
        "%s: %s; rank %d: %s; collective %llu on %s%s", ref, a, comm->rank,
        b, (unsigned long long)s, comm->is_inter ? "the intercommunicator " : "",
        label);
}

/* Members other than this one, by index: the local group's, then (an
   intercommunicator) the remote group's; their world ranks. */
static int member_world(MPI_Comm comm, int i)
{
    return i < comm->size ? shmpi_comm_to_world(comm, i)
                          : comm->remote_world[i - comm->size];
}

static void compare(MPI_Comm comm, uint64_t s, const struct order *mine)
{
    int n = comm->size + (comm->is_inter ? comm->remote_size : 0);
    for (int i = 0; i < n; i++) {
        struct order theirs;
        if (i == comm->rank ||
            !read_entry(entry(member_world(comm, i), mine->context, s),
                        mine->context, s, &theirs) ||
            theirs.call == REFUSED)
            continue;
        int rule = differ(&theirs, mine);
        if (rule) {
            char ref[40];
            snprintf(ref, sizeof ref, "%s%d",
                     i < comm->size ? "rank " : "remote rank ",
                     i < comm->size ? i : i - comm->size);
            report(comm, s, rule, ref, &theirs, mine);
            return;
        }
    }
}

/* The process a root names, world rank (ANY_ROOT: any). */
static int root_world(MPI_Comm comm, int root)
{
    if (root == SHMPI_ORDER_NO_ROOT || !comm->is_inter)
        return root;
    if (root == MPI_ROOT)
        return shmpi_proc.rank;
    if (root == MPI_PROC_NULL || root < 0 || root >= comm->remote_size)
        return ANY_ROOT;
    return comm->remote_world[root];
}

/* The amounts mine compares: count x type's bytes and signature. */
static void amounts(MPI_Comm comm, int root, MPI_Count count,
                    MPI_Datatype type, struct order *mine)
{
    char kind[48];
    snprintf(kind, sizeof kind, "|%s|", kinds[(mine->call - 1) / 3]);
    if (!type || (comm->is_inter && (root == MPI_PROC_NULL ||
                                     !strstr(INTER_AMOUNTS, kind))))
        return;
    mine->bytes = (uint64_t)count * (uint64_t)type->size;
    uint64_t h;
    if (shmpi_dt_sig(type, count, mine->bytes, &h) == SHMPI_DT_SIG_TYPED)
        mine->sig = h == ANY ? ANY - 1 : h;
    shmpi_dt_describe(type, mine->type, sizeof mine->type);
}

void shmpi_coll_order_check(const char *fn, MPI_Comm comm, int rc, int root,
                            MPI_Op op, MPI_Count count, MPI_Datatype type)
{
    if (!check_area || (rc != MPI_SUCCESS && !shmpi_comm_ok(comm)))
        return; /* nothing compared, or not a call on a communicator */
    if (comm->size + (comm->is_inter ? comm->remote_size : 0) < 2)
        return;
    /* a refused call's op and type may be no objects at all: not read */
    struct order mine = {ANY, ANY, comm->context, root,
                         root_world(comm, root), REFUSED, 0, ""};
    if (rc == MPI_SUCCESS) {
        mine.call = call_of(fn);
        mine.op = op == MPI_OP_NULL ? 0 : (unsigned)op->code + 1;
        if (mine.call != REFUSED)
            amounts(comm, root, count, type, &mine);
    }
    shmpi_core_lock(&lock);
    uint64_t s = next_seq(comm->context);
    if (s)
    if (s)
        publish(entry(shmpi_proc.rank, mine.context, s), s, &mine);
    shmpi_core_unlock(&lock);
    if (!s || mine.call == REFUSED || reported(mine.context))
        return;
    /* the other half of the pairing the top comment argues */
    atomic_thread_fence(memory_order_seq_cst);
    compare(comm, s, &mine);
}
