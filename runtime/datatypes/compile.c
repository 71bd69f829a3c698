/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * compile.c - MPI_Type_commit's compiler: a datatype's tree (datatype.h)
 * becomes the flat program that every walk over its bytes follows
 * (iterate.c, pack.c), so that no walk ever looks at the tree.
 *
 * The program.  Two kinds of node say where the packed bytes of a type
 * live, relative to an origin:
 *   RUNS   count repetitions, by stride, of a list of n runs (disp, len):
 *          the only node that names memory.  A vector is one RUNS node
 *          whatever its count; an indexed or struct type of basic types is
 *          one RUNS node of n runs; an array of structs is one RUNS node
 *          repeated by the extent.
 *   LOOPS  n entries one after the other, entry k being count copies of a
 *          body node at disp + i * stride: what one RUNS node cannot say
 *          (a 3-D subarray, a vector of indexed types, a struct with a
 *          vector in it).  Bodies are shared, never copied, when big: the
 *          child of an indexed type of a million blocks is there once.
 * The top node is count x type: the type repeated by its extent for as
 * long as the walk goes (count SHMPI_ENDLESS), folded into the type's
 * own outermost repeat whenever it continues it.  Where the bytes of one
 * element end is the caller's business: the walks take packed offsets.
 *
 * Folding, place(): count copies by stride s of a node B
 *   - B is one iteration of runs:          RUNS count x s of B's runs;
 *   - B is RUNS b x t and b * t == s:      RUNS (count * b) x t - the
 *          repeat continues B's own (a vector resized to count * stride,
 *          the rows of a 2-D subarray);
 *   - B is LOOPS of one entry: the same rule on that entry;
 *   - otherwise a LOOPS entry pointing at B.
 * Runs that touch in memory and follow each other in packed order merge
 * as they are added, and count x s copies of one run of length s become
 * one run: a contiguous type of a contiguous type, or a vector whose
 * stride is its block length, is one run.  t->contig (count x t is
 * count * size bytes at buf) is then "the top is one endless run, at
 * offset 0, whose stride is its length"; with another offset the type is
 * still `solid` (one memcpy), just not at buf.
 *
 * Layout: one malloc'd block, position independent (offsets, never
 * pointers, so a program can be copied or placed in the arena):
 *   struct shmpi_flat              header: bytes, top, solid, solid_disp
 *   then nodes, each a multiple of 8 bytes:
 *     RUNS   header, count, stride, uniform, disp[n]; when the run
 *            lengths differ (uniform == 0) also len[n], prefix[n]
 *     LOOPS  header, e[n] = {disp, count, stride, body, unit, prefix}
 * Invariants the walks rely on:
 *   - every run has len > 0, every node n >= 1 and size > 0: parts of a
 *     type without data leave no trace;
 *   - prefix[] of runs and of entries rises strictly from 0, so a walk
 *     finds where a packed offset lies by division and binary search and
 *     starts anywhere in O(depth x log n);
 *   - RUNS size = sum of len; an entry's unit = its body's packed bytes;
 *     only the top node, or the one entry of a top LOOPS, is ENDLESS;
 *   - no node sits at offset 0 (the header does): top == 0 means the
 *     type has no data.
 *
 * Building goes through an intermediate form (struct ir: pointers, freed
 * at the end) in which nodes can be inspected and shared freely; each
 * type of the tree is compiled once per commit (a pointer-keyed memo),
 * so a type used many times in a tree costs its size once.
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "datatypes/datatype.h"
#include "datatypes/flat.h"
#include "datatypes/ops.h"

/* A node with at most this many runs or entries is copied into the node
   that uses it (one node walks faster than two); a bigger one is shared. */
#define INLINE_MAX 64

struct ir_entry {
    int64_t disp;
    uint64_t count;
    int64_t stride;
    struct ir *body;
};

struct ir {
    enum shmpi_node_kind kind;
    uint64_t n, cap;           /* runs or entries, and room for them */
    uint64_t size;             /* as struct shmpi_flat_node's */
    uint64_t count;            /* RUNS */
    int64_t stride;            /* RUNS */
    int64_t *disp;             /* RUNS */
    uint64_t *len;             /* RUNS */
    struct ir_entry *e;        /* LOOPS */
    uint64_t at;               /* offset in the program once laid out */
    int written;
    struct ir *next;           /* every node of this compile */
};

struct memo_slot {
    MPI_Datatype t;
    struct ir *ir;             /* NULL: t has no data */
};

struct compiler {
    struct ir *nodes;
    struct memo_slot *memo;    /* open addressing, power-of-two size */
    size_t memo_cap, memo_used;
    int failed;                /* out of memory */
};

static struct ir *ir_new(struct compiler *c, enum shmpi_node_kind kind)
{
    struct ir *ir = calloc(1, sizeof *ir);
    if (!ir) {
        c->failed = 1;
        return NULL;
    }
    ir->kind = kind;
    ir->next = c->nodes;
    c->nodes = ir;
    return ir;
}

/* Room for one more run or entry. */
static int ir_grow(struct compiler *c, struct ir *ir)
{
    if (ir->n < ir->cap)
        return 1;
    uint64_t cap = ir->cap ? 2 * ir->cap : 4;
    if (ir->kind == SHMPI_NODE_RUNS) {
        int64_t *d = realloc(ir->disp, cap * sizeof *d);
        if (d)
            ir->disp = d;
        uint64_t *l = d ? realloc(ir->len, cap * sizeof *l) : NULL;
        if (!l)
            goto fail;
        ir->len = l;
    } else {
        struct ir_entry *e = realloc(ir->e, cap * sizeof *e);
        if (!e)
            goto fail;
        ir->e = e;
    }
    ir->cap = cap;
    return 1;
fail:
    c->failed = 1;
    return 0;
}

/* a * b for counts, ENDLESS absorbing. */
static uint64_t times(uint64_t a, uint64_t b)
{
    return a == SHMPI_ENDLESS || b == SHMPI_ENDLESS ? SHMPI_ENDLESS : a * b;
}

/* The memory spanned by count repeats of stride, if it is finite. */
static int span(uint64_t count, int64_t stride, int64_t *out)
{
    return count <= INT64_MAX &&
           !__builtin_mul_overflow((int64_t)count, stride, out);
}

/* Packed bytes of a whole node. */
static uint64_t ir_bytes(const struct ir *ir)
{
    return ir->kind == SHMPI_NODE_RUNS ? times(ir->count, ir->size)
                                       : ir->size;
}

static struct ir *runs_new(struct compiler *c, uint64_t count, int64_t stride)
{
    struct ir *r = ir_new(c, SHMPI_NODE_RUNS);
    if (r) {
        r->count = count;
        r->stride = count == 1 ? 0 : stride;
    }
    return r;
}

/* Append a run, merged into the last one when it continues it. */
static void runs_add(struct compiler *c, struct ir *r, int64_t disp,
                     uint64_t len)
{
    r->size += len;
    if (r->n && r->disp[r->n - 1] + (int64_t)r->len[r->n - 1] == disp) {
        r->len[r->n - 1] += len;
        return;
    }
    if (!ir_grow(c, r))
        return;
    r->disp[r->n] = disp;
    r->len[r->n] = len;
    r->n++;
}

/* RUNS count x stride of b's runs moved by disp; count copies of one run
   of length stride are one run. */
static struct ir *runs_copy(struct compiler *c, const struct ir *b,
                            int64_t disp, uint64_t count, int64_t stride)
{
    struct ir *r = runs_new(c, count, stride);
    for (uint64_t j = 0; r && j < b->n && !c->failed; j++)
        runs_add(c, r, b->disp[j] + disp, b->len[j]);
    if (r && r->n == 1 && r->count > 1 && r->count != SHMPI_ENDLESS &&
        r->stride == (int64_t)r->len[0]) {
        r->len[0] *= r->count;
        r->size = r->len[0];
        r->count = 1;
        r->stride = 0;
    }
    return r;
}

static void loops_add(struct compiler *c, struct ir *l, struct ir_entry e)
{
    if (!ir_grow(c, l))
        return;
    if (e.count == 1)
        e.stride = 0;
    l->e[l->n++] = e;
    uint64_t bytes = times(e.count, ir_bytes(e.body));
    l->size = bytes == SHMPI_ENDLESS ? SHMPI_ENDLESS : l->size + bytes;
}

static struct ir *loops_one(struct compiler *c, int64_t disp, uint64_t count,
                            int64_t stride, struct ir *body)
{
    struct ir *l = ir_new(c, SHMPI_NODE_LOOPS);
    if (l)
        loops_add(c, l, (struct ir_entry){disp, count, stride, body});
    return l;
}

/* b moved by disp, as a copy of b (b is small). */
static struct ir *shifted(struct compiler *c, const struct ir *b,
                          int64_t disp)
{
    if (b->kind == SHMPI_NODE_RUNS)
        return runs_copy(c, b, disp, b->count, b->stride);
    struct ir *l = ir_new(c, SHMPI_NODE_LOOPS);
    for (uint64_t k = 0; l && k < b->n && !c->failed; k++) {
        struct ir_entry e = b->e[k];
        e.disp += disp;
        loops_add(c, l, e);
    }
    return l;
}

/* b's iterations written out as one list of runs when that list is
   short: one RUNS node of a few runs walks faster than a loop of loops. */
static struct ir *unrolled(struct compiler *c, struct ir *b)
{
    if (b->kind != SHMPI_NODE_RUNS || b->count == 1 ||
        b->count > INLINE_MAX || b->count * b->n > INLINE_MAX)
        return b;
    struct ir *r = runs_new(c, 1, 0);
    for (uint64_t i = 0; r && i < b->count && !c->failed; i++)
        for (uint64_t j = 0; j < b->n && !c->failed; j++)
            runs_add(c, r, b->disp[j] + (int64_t)i * b->stride, b->len[j]);
    return r;
}

/* count copies of b, the first at disp, the next ones stride apart:
   folded into b when that is still one node (see the top comment).
   NULL (no data) stays NULL. */
static struct ir *place(struct compiler *c, struct ir *b, int64_t disp,
                        uint64_t count, int64_t stride)
{
    int64_t b_span;
    if (!b || count == 0)
        return NULL;
    if (count == 1 && disp == 0)
        return b;
    if (b->n > INLINE_MAX)
        return loops_one(c, disp, count, stride, b);
    if (count == 1)
        return shifted(c, b, disp);
    if (b->kind == SHMPI_NODE_RUNS) {
        if (span(b->count, b->stride, &b_span) && b_span == stride)
            return runs_copy(c, b, disp, times(count, b->count), b->stride);
        if (!(b = unrolled(c, b)))
            return NULL;
        if (b->count == 1)
            return runs_copy(c, b, disp, count, stride);
    } else if (b->n == 1) {
        const struct ir_entry *e = &b->e[0];
        if (e->count == 1)
            return loops_one(c, disp + e->disp, count, stride, e->body);
        if (span(e->count, e->stride, &b_span) && b_span == stride)
            return loops_one(c, disp + e->disp, times(count, e->count),
                             e->stride, e->body);
    }
    return loops_one(c, disp, count, stride, b);
}

static struct ir *compile_type(struct compiler *c, MPI_Datatype t);

/* Append the node p (placed relative to the same origin) to the list of
   a map being compiled: small run lists join the pending runs, anything
   else becomes entries after them. */
static void list_append(struct compiler *c, struct ir **runs,
                        struct ir **loops, struct ir *p)
{
    if (!(p = unrolled(c, p)))
        return;
    if (p->kind == SHMPI_NODE_RUNS && p->count == 1 && p->n <= INLINE_MAX) {
        if (!*runs && !(*runs = runs_new(c, 1, 0)))
            return;
        for (uint64_t j = 0; j < p->n && !c->failed; j++)
            runs_add(c, *runs, p->disp[j], p->len[j]);
        return;
    }
    if (!*loops && !(*loops = ir_new(c, SHMPI_NODE_LOOPS)))
        return;
    if (*runs) {
        loops_add(c, *loops, (struct ir_entry){0, 1, 0, *runs});
        *runs = NULL;
    }
    if (p->kind == SHMPI_NODE_LOOPS && p->n <= INLINE_MAX)
        for (uint64_t k = 0; k < p->n && !c->failed; k++)
            loops_add(c, *loops, p->e[k]);
    else
        loops_add(c, *loops, (struct ir_entry){0, 1, 0, p});
}

/* blocklen copies of b (one element of a type of that extent) at disp,
   added to the pending runs without a node of their own, when b is one
   run list and the copies are one run or few runs; 0 if they are not. */
static int list_runs_direct(struct compiler *c, struct ir **runs,
                            const struct ir *b, int64_t disp,
                            uint64_t blocklen, int64_t extent)
{
    if (b->kind != SHMPI_NODE_RUNS || b->count != 1)
        return 0;
    int contiguous = b->n == 1 && (int64_t)b->len[0] == extent;
    if (!contiguous && blocklen * b->n > INLINE_MAX)
        return 0;
    if (!*runs && !(*runs = runs_new(c, 1, 0)))
        return 1;
    if (contiguous) { /* the whole block is one run */
        runs_add(c, *runs, disp + b->disp[0], blocklen * b->len[0]);
        return 1;
    }
    for (uint64_t k = 0; k < blocklen; k++)
        for (uint64_t j = 0; j < b->n && !c->failed; j++)
            runs_add(c, *runs, disp + (int64_t)k * extent + b->disp[j],
                     b->len[j]);
    return 1;
}

/* A map whose blocks are listed one by one (indexed, struct, pairs). */
static struct ir *compile_list(struct compiler *c, MPI_Datatype t)
{
    const struct shmpi_dt_blocks *m = &t->map;
    struct ir *runs = NULL, *loops = NULL, *b = NULL;
    MPI_Datatype prev = MPI_DATATYPE_NULL;
    for (MPI_Count i = 0; i < m->n && !c->failed; i++) {
        MPI_Datatype child = shmpi_dt_block_child(m, i);
        MPI_Count blocklen = shmpi_dt_block_len(m, i);
        int64_t disp = shmpi_dt_block_disp(m, i);
        if (child != prev) /* the usual case: one child for every block */
            b = compile_type(c, child);
        prev = child;
        if (!b || blocklen == 0 ||
            list_runs_direct(c, &runs, b, disp, (uint64_t)blocklen,
                             child->extent))
            continue;
        struct ir *p = place(c, b, disp, (uint64_t)blocklen, child->extent);
        if (p)
            list_append(c, &runs, &loops, p);
    }
    if (!loops)
        return runs;
    if (runs)
        loops_add(c, loops, (struct ir_entry){0, 1, 0, runs});
    return loops;
}

static struct ir *compile_map(struct compiler *c, MPI_Datatype t)
{
    const struct shmpi_dt_blocks *m = &t->map;
    if (!m->regular)
        return compile_list(c, t);
    struct ir *block = place(c, compile_type(c, m->child), 0,
                             (uint64_t)m->blocklen, m->child->extent);
    return place(c, block, m->disp0, (uint64_t)m->n, m->stride);
}

/* The slot of t, or the empty slot where it belongs. */
static struct memo_slot *memo_slot(const struct compiler *c, MPI_Datatype t)
{
    size_t mask = c->memo_cap - 1;
    size_t i = (size_t)(((uintptr_t)t >> 4) * 0x9e3779b97f4a7c15u) & mask;
    while (c->memo[i].t && c->memo[i].t != t)
        i = (i + 1) & mask;
    return &c->memo[i];
}

static void memo_put(struct compiler *c, MPI_Datatype t, struct ir *ir)
{
    if (2 * (c->memo_used + 1) > c->memo_cap) {
        struct compiler bigger = {.memo_cap = c->memo_cap ? 2 * c->memo_cap
                                                          : 16};
        bigger.memo = calloc(bigger.memo_cap, sizeof *bigger.memo);
        if (!bigger.memo) {
            c->failed = 1;
            return;
        }
        for (size_t i = 0; i < c->memo_cap; i++)
            if (c->memo[i].t)
                *memo_slot(&bigger, c->memo[i].t) = c->memo[i];
        free(c->memo);
        c->memo = bigger.memo;
        c->memo_cap = bigger.memo_cap;
    }
    *memo_slot(c, t) = (struct memo_slot){t, ir};
    c->memo_used++;
}

/* One element of t, relative to its buffer; NULL when t has no data. */
static struct ir *compile_type(struct compiler *c, MPI_Datatype t)
{
    if (c->memo_cap) {
        struct memo_slot *s = memo_slot(c, t);
        if (s->t)
            return s->ir;
    }
    struct ir *ir = NULL;
    if (t->size > 0 && t->leaf) {
        if ((ir = runs_new(c, 1, 0)))
            runs_add(c, ir, 0, (uint64_t)t->size);
    } else if (t->size > 0) {
        ir = compile_map(c, t);
    }
    memo_put(c, t, ir);
    return ir;
}

static uint64_t runs_uniform(const struct ir *r)
{
    for (uint64_t j = 1; j < r->n; j++)
        if (r->len[j] != r->len[0])
            return 0;
    return r->len[0];
}

static uint64_t node_bytes(const struct ir *ir)
{
    if (ir->kind == SHMPI_NODE_LOOPS)
        return sizeof(struct shmpi_flat_loops) +
               ir->n * sizeof(struct shmpi_flat_entry);
    return sizeof(struct shmpi_flat_runs) +
           ir->n * sizeof(int64_t) * (runs_uniform(ir) ? 1 : 3);
}

/* Give ir and everything below it an offset in the program. */
static void lay_out(struct ir *ir, uint64_t *end)
{
    if (ir->at)
        return;
    ir->at = *end;
    *end += node_bytes(ir);
    for (uint64_t k = 0; ir->kind == SHMPI_NODE_LOOPS && k < ir->n; k++)
        lay_out(ir->e[k].body, end);
}

static void write_runs(unsigned char *prog, const struct ir *ir)
{
    struct shmpi_flat_runs *r = (struct shmpi_flat_runs *)(prog + ir->at);
    r->h = (struct shmpi_flat_node){SHMPI_NODE_RUNS, 0, ir->n, ir->size};
    r->count = ir->count;
    r->stride = ir->stride;
    r->uniform = runs_uniform(ir);
    memcpy(r->disp, ir->disp, ir->n * sizeof *ir->disp);
    if (r->uniform)
        return;
    uint64_t *len = (uint64_t *)shmpi_runs_len(r);
    uint64_t *prefix = (uint64_t *)shmpi_runs_prefix(r);
    for (uint64_t j = 0, at = 0; j < ir->n; at += ir->len[j], j++) {
        len[j] = ir->len[j];
        prefix[j] = at;
    }
}

static void write_node(unsigned char *prog, struct ir *ir)
{
    if (ir->written)
        return;
    ir->written = 1;
    if (ir->kind == SHMPI_NODE_RUNS) {
        write_runs(prog, ir);
        return;
    }
    struct shmpi_flat_loops *l = (struct shmpi_flat_loops *)(prog + ir->at);
    l->h = (struct shmpi_flat_node){SHMPI_NODE_LOOPS, 0, ir->n, ir->size};
    uint64_t prefix = 0;
    for (uint64_t k = 0; k < ir->n; k++) {
        const struct ir_entry *e = &ir->e[k];
        uint64_t unit = ir_bytes(e->body);
        l->e[k] = (struct shmpi_flat_entry){e->disp, e->count, e->stride,
                                            e->body->at, unit, prefix};
        prefix += e->count == SHMPI_ENDLESS ? 0 : e->count * unit;
        write_node(prog, e->body);
    }
}

static struct shmpi_flat *build(struct ir *top)
{
    uint64_t end = sizeof(struct shmpi_flat);
    if (top)
        lay_out(top, &end);
    struct shmpi_flat *f = calloc(1, end);
    if (!f)
        return NULL;
    f->bytes = end;
    if (!top) {
        f->solid = 1; /* nothing to move is one (empty) run */
        return f;
    }
    write_node((unsigned char *)f, top);
    f->top = top->at;
    if (top->kind == SHMPI_NODE_RUNS && top->n == 1 &&
        top->stride == (int64_t)top->len[0]) {
        f->solid = 1;
        f->solid_disp = top->disp[0];
    }
    return f;
}

static void compiler_free(struct compiler *c)
{
    for (struct ir *ir = c->nodes, *next; ir; ir = next) {
        next = ir->next;
        free(ir->disp);
        free(ir->len);
        free(ir->e);
        free(ir);
    }
    free(c->memo);
}

/* Another thread published t's compiled form and is between that and
   its store of published: a few instructions with no call that may
   block, so this spins (yielding, in case that thread was preempted).
   Acquire: once published reads 1, contig, committed and flat as that
   thread wrote them are visible here, and so to whatever this thread
   does next. */
static void wait_published(MPI_Datatype t)
{
    while (!atomic_load_explicit(&t->published, memory_order_acquire))
        sched_yield();
}

/* Two threads may commit one type at once (MPI_THREAD_MULTIPLE): each
   compiles a copy of its own, and a compare-exchange NULL -> copy
   publishes the first.  Release on success: the program's nodes are
   written before the pointer can be seen; acquire on failure and in the
   first load: a thread that finds the pointer reads the nodes behind it.
   The loser frees its copy.  Only the publisher writes contig and
   committed (plain bytes the hot paths read), then stores published
   with release; whoever lost, or found flat already there, waits for
   that store before it returns. */
int shmpi_dt_compile(MPI_Datatype t)
{
    if (atomic_load_explicit(&t->published, memory_order_acquire))
        return MPI_SUCCESS;
    struct shmpi_flat *f = atomic_load_explicit(&t->flat,
                                                memory_order_acquire);
    if (f) {
        wait_published(t);
        return MPI_SUCCESS;
    }
    struct compiler c = {0};
    struct ir *top = place(&c, compile_type(&c, t), 0, SHMPI_ENDLESS,
                           t->extent);
    struct shmpi_flat *mine = c.failed ? NULL : build(top);
    compiler_free(&c);
    if (!mine)
        return MPI_ERR_NO_MEM;
    if (!atomic_compare_exchange_strong_explicit(&t->flat, &f, mine,
                                                 memory_order_release,
                                                 memory_order_acquire)) {
        shmpi_dt_flat_free(mine);
        wait_published(t);
        return MPI_SUCCESS;
    }
    t->contig = mine->solid && mine->solid_disp == 0;
    t->committed = 1;
    atomic_store_explicit(&t->published, 1, memory_order_release);
    return MPI_SUCCESS;
}

void shmpi_dt_flat_free(struct shmpi_flat *flat)
{
    free(flat);
}

int shmpi_dt_compile_predefined(void)
{
    for (int i = 1; i < SHMPI_DT_NNUMBERED; i++) {  /* [0] is the null */
        int rc = shmpi_dt_compile(shmpi_dt_numbered[i]);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    shmpi_op_kernel_rows();
    return MPI_SUCCESS;
}
