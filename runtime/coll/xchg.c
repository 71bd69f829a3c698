/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xchg.c - moving blocks through the area: bcast, gather(v),
 * scatter(v), allgather(v) and alltoall(v,w) are all "writers publish
 * packed blocks in their slot, readers unpack what is theirs".
 *
 * Shapes.  ONE: a writer's block is for every reader (bcast, gather,
 * allgather); it fills a whole half, and a block of at most
 * SHMPI_COLL_INLINE bytes rides in the writer's control line instead, so
 * a reader gets word and data in one cache-line transfer.  EACH: a writer
 * has one block per reader (scatter, alltoall); a half is cut into one
 * region per member (shmpi_coll_xchg_region).
 *
 * Rounds.  A block larger than a half (or region) moves in rounds: round
 * t carries bytes [t * piece, (t + 1) * piece) of every block and uses
 * half (seq + t) & 1, so a writer fills one half while the readers empty
 * the other - a two-stage pipeline.  A writer publishes (seq, t + 1) when
 * its round t is written; a reader that writes nothing publishes
 * (seq, t + 2) when it has read round t.  Either way "(seq, k)" means
 * "written rounds < k, read rounds < k - 1", and before writing round
 * t >= 2 into the half of round t - 2 a writer waits for its readers to
 * reach (seq, t); round 1 goes to the other half, claimed by the reuse
 * rule (coll.h).  The round count of a reader comes from the lengths the
 * writers published with round 0 (and what it expects), so a reader never
 * waits for a round that will not come; a writer never waits for a
 * reader that stopped early, because the reader ends with STEP_DONE.
 *
 * Truncation: a writer publishes its length; a reader that expects less
 * unpacks what fits and reports MPI_ERR_TRUNCATE, after taking its part
 * in every round so that nobody is left waiting.
 */
#include "coll/fallback.h"
#include "coll/xchg.h"
#include "core/error.h"
#include "datatypes/datatype.h"

void shmpi_coll_block_at(const struct shmpi_coll_blocks *b, int i,
                         struct shmpi_coll_block *out)
{
    MPI_Aint disp = b->displs.p ? shmpi_coll_disp_at(b->displs, i)
                                : (MPI_Aint)i * b->count;
    out->count = b->counts.p ? shmpi_coll_count_at(b->counts, i) : b->count;
    out->type = b->types ? b->types[i] : b->type;
    out->buf = b->base + disp * b->unit;
    out->len = (uint64_t)out->count * (uint64_t)out->type->size;
}

struct shmpi_coll_blocks shmpi_coll_one_block(const void *buf, MPI_Count count,
                                              MPI_Datatype type)
{
    return (struct shmpi_coll_blocks){.base = (unsigned char *)buf,
                                      .count = count, .type = type};
}

/*
 * A region is a cache line or more where the half holds that much per
 * member, so that two readers never share a line; with more members
 * (the arena halves the slots of large jobs: 32 KiB halves from 513
 * ranks on, 4 KiB at the least) it is 8-byte aligned, or any size down to
 * one byte, and larger blocks take more rounds.  Readers then share the
 * writer's lines, which only they read: that costs transfers, not
 * correctness, and it is far cheaper than the messages of the fallback,
 * whose all-to-all between n ranks touches n * (n - 1) connections
 * (at -np 513, MPI_Alltoall of one int used to run the machine out of
 * memory that way).
 */
uint64_t shmpi_coll_xchg_region(const struct shmpi_coll *c)
{
    uint64_t each = c->half / (uint64_t)c->size;
    if (each >= 64)
        return each / 64 * 64;
    return each >= 8 ? each / 8 * 8 : each;
}

int shmpi_coll_xchg_fits(const struct shmpi_coll *c,
                         enum shmpi_xchg_shape shape)
{
    return shape == SHMPI_XCHG_ONE || shmpi_coll_xchg_region(c) > 0;
}

static uint64_t min64(uint64_t a, uint64_t b) { return a < b ? a : b; }

static uint64_t rounds_of(uint64_t len, uint64_t piece)
{
    return (len + piece - 1) / piece;
}

/* The state of one member in one run. */
struct run {
    struct shmpi_coll *c;
    struct shmpi_coll_xchg *x;
    int p;                       /* parity of the collective */
    uint64_t piece;              /* bytes of a block per round */
    uint64_t out_len;            /* longest block this member writes */
    uint64_t out_rounds;
    uint64_t rounds;             /* this member takes part in [0, rounds) */
};

static int reads_from(const struct shmpi_coll_xchg *x, int j, int me)
{
    return j != me && (x->sources == SHMPI_COLL_ALL || x->sources == j);
}

static uint64_t out_length(const struct run *r)
{
    const struct shmpi_coll_xchg *x = r->x;
    if (!x->writes)
        return 0;
    if (x->shape == SHMPI_XCHG_ONE)
        return x->mine.len;
    uint64_t longest = 0;
    for (int d = 0; d < r->c->size; d++) {
        struct shmpi_coll_block b;
        if (d == r->c->rank)
            continue;
        shmpi_coll_block_at(&x->out, d, &b);
        if (b.len > longest)
            longest = b.len;
    }
    return longest;
}

static int is_inline(const struct run *r, uint64_t len)
{
    return r->x->shape == SHMPI_XCHG_ONE && len <= SHMPI_COLL_INLINE;
}

static void write_round(struct run *r, uint64_t t)
{
    struct shmpi_coll *c = r->c;
    struct shmpi_coll_xchg *x = r->x;
    int h = (int)((r->p + t) & 1);
    uint64_t off = t * r->piece;
    unsigned char *dst = shmpi_coll_half(c, c->rank, h);
    if (x->shape == SHMPI_XCHG_ONE) {
        if (is_inline(r, r->out_len))
            dst = shmpi_coll_ctl(c, c->rank)->data[r->p];
        shmpi_dt_pack(x->mine.buf, x->mine.type, off, dst,
                      min64(r->piece, x->mine.len - off));
        return;
    }
    for (int d = 0; d < c->size; d++) {
        struct shmpi_coll_block b;
        if (d == c->rank)
            continue;
        shmpi_coll_block_at(&x->out, d, &b);
        if (off < b.len)
            shmpi_dt_pack(b.buf, b.type, off, dst + (uint64_t)d * r->piece,
                          min64(r->piece, b.len - off));
    }
}

/* Before writing round t: the reuse rule for t < 2, else the readers of
   round t - 2 (same half) must be past it. */
static void claim_round(struct run *r, uint64_t t)
{
    struct shmpi_coll *c = r->c;
    int h = (int)((r->p + t) & 1);
    if (t < 2)
        shmpi_coll_claim(c, h);
    else if (r->x->readers == SHMPI_COLL_ALL)
        shmpi_coll_wait_all(c, (uint32_t)t);
    else
        shmpi_coll_wait(c, r->x->readers, (uint32_t)t);
}

/* Bytes of source j's block this member takes, from j's published
   length; notes a truncation. */
static uint64_t wanted_from(struct run *r, int j,
                            struct shmpi_coll_block *b)
{
    struct shmpi_coll_xchg *x = r->x;
    uint64_t sent = shmpi_coll_ctl(r->c, j)->len[r->p];
    shmpi_coll_block_at(&x->in, j, b);
    int checkable = x->shape == SHMPI_XCHG_ONE || x->exact;
    if (checkable && sent > b->len && x->truncated_by < 0)
        x->truncated_by = j;
    return min64(sent, b->len);
}

/* Round t of source j, if it has data for this member then. */
static void read_round(struct run *r, int j, uint64_t t)
{
    struct shmpi_coll *c = r->c;
    struct shmpi_coll_block b;
    uint64_t want = wanted_from(r, j, &b), off = t * r->piece;
    if (off >= want)
        return;
    int h = (int)((r->p + t) & 1);
    const unsigned char *src;
    if (is_inline(r, shmpi_coll_ctl(c, j)->len[r->p]))
        src = shmpi_coll_ctl(c, j)->data[r->p];
    else if (r->x->shape == SHMPI_XCHG_ONE)
        src = shmpi_coll_half(c, j, h);
    else
        src = shmpi_coll_half(c, j, h) + (uint64_t)c->rank * r->piece;
    shmpi_dt_unpack(b.buf, b.type, off, src, min64(r->piece, want - off));
}

static uint64_t rounds_from(struct run *r, int j)
{
    struct shmpi_coll_block b;
    return rounds_of(wanted_from(r, j, &b), r->piece);
}

/* Round 0: wait for the first word of every source. */
static void wait_first(struct run *r)
{
    if (r->x->sources == SHMPI_COLL_ALL)
        shmpi_coll_wait_all(r->c, 1);
    else
        shmpi_coll_wait(r->c, r->x->sources, 1);
}

/* Round 0 of every source: learn its length, read.  Sources are visited
   from rank + 1 on, so that readers spread out over the writers. */
static void read_first(struct run *r)
{
    struct shmpi_coll *c = r->c;
    int n = c->size;
    for (int k = 1; k < n; k++) {
        int j = (c->rank + k) % n;
        if (!reads_from(r->x, j, c->rank))
            continue;
        uint64_t rounds = rounds_from(r, j);
        if (rounds > r->rounds)
            r->rounds = rounds;
        read_round(r, j, 0);
    }
}

static void read_later(struct run *r, uint64_t t)
{
    struct shmpi_coll *c = r->c;
    int n = c->size;
    for (int k = 1; k < n; k++) {
        int j = (c->rank + k) % n;
        if (!reads_from(r->x, j, c->rank) || rounds_from(r, j) <= t)
            continue;
        shmpi_coll_wait(c, j, (uint32_t)t + 1);
        read_round(r, j, t);
    }
}

/* Round 0 of a writer: claim, write, publish with the length. */
static void write_first(struct run *r)
{
    struct shmpi_coll *c = r->c;
    claim_round(r, 0);
    write_round(r, 0);
    shmpi_coll_ctl(c, c->rank)->len[r->p] = r->out_len;
    shmpi_coll_wrote(c, r->p, r->x->readers);
    shmpi_coll_publish(c, 1);
}

static void run_rounds(struct run *r)
{
    struct shmpi_coll *c = r->c;
    struct shmpi_coll_xchg *x = r->x;
    int reads = x->sources != SHMPI_COLL_NOBODY;
    for (uint64_t t = 1; t < r->rounds; t++) {
        if (x->writes) {
            if (t < r->out_rounds) {
                claim_round(r, t);
                write_round(r, t);
                shmpi_coll_wrote(c, (int)((r->p + t) & 1), x->readers);
            }
            shmpi_coll_publish(c, (uint32_t)t + 1);
            shmpi_coll_ring(c, x->readers);
        }
        if (reads)
            read_later(r, t);
        if (reads && !x->writes && t + 1 < r->rounds) {
            shmpi_coll_publish(c, (uint32_t)t + 2);
            shmpi_coll_ring(c, x->sources);
        }
    }
}

/*
 * Round 0.  A member that writes and reads rings its readers after its
 * own wait, not before (the reasoning of barrier.c: what it waits for was
 * stored by the sources before they waited themselves).  When every
 * member writes, reads and needs one round only, its store of round 0
 * preceded its reads and only the parity half was used, so STEP_DONE is
 * left to the next collective (coll.h).
 */
void shmpi_coll_xchg(struct shmpi_coll *c, struct shmpi_coll_xchg *x)
{
    struct run r = {.c = c, .x = x, .p = (int)(shmpi_coll_begin(c) & 1)};
    int reads = x->sources != SHMPI_COLL_NOBODY;
    x->truncated_by = -1;
    r.piece = x->shape == SHMPI_XCHG_ONE ? c->half
                                          : shmpi_coll_xchg_region(c);
    r.out_len = out_length(&r);
    r.out_rounds = x->writes ? rounds_of(r.out_len, r.piece) : 0;
    if (x->writes && r.out_rounds == 0)
        r.out_rounds = 1; /* an empty block still announces its length */
    r.rounds = r.out_rounds ? r.out_rounds : 1;
    if (x->writes)
        write_first(&r);
    if (reads)
        wait_first(&r);
    if (x->writes)
        shmpi_coll_ring(c, x->readers);
    if (reads) {
        read_first(&r);
        if (!x->writes && r.rounds > 1) {
            shmpi_coll_publish(c, 2);
            shmpi_coll_ring(c, x->sources);
        }
    }
    run_rounds(&r);
    int single = x->agreed && x->writes && reads && r.rounds == 1;
    shmpi_coll_finish(c, single, reads ? x->sources : SHMPI_COLL_NOBODY);
}

/* Bytes of each half of its slot that this member writes in x, which
   bound what its readers read there: a reader takes at most the length
   the writer published (wanted_from), in ONE from the start of the half
   (nothing there when the block rides in the control line), in EACH
   from the start of its own region. */
static uint64_t half_bytes(struct shmpi_coll *c, struct shmpi_coll_xchg *x)
{
    struct run r = {.c = c, .x = x};
    uint64_t len = out_length(&r);
    if (x->shape == SHMPI_XCHG_ONE)
        return len <= SHMPI_COLL_INLINE ? 0 : min64(len, c->half);
    uint64_t piece = shmpi_coll_xchg_region(c);
    return len ? (uint64_t)(c->size - 1) * piece + min64(piece, len) : 0;
}

int shmpi_coll_move(MPI_Comm comm, struct shmpi_coll_xchg *x, int root,
                    const char *fn)
{
    char err[192];
    if (!comm->coll || !shmpi_coll_xchg_fits(comm->coll, x->shape))
        return shmpi_coll_fb_xchg(comm, x, fn);
    shmpi_coll_calling(comm->coll, fn, root);
    if (x->writes && shmpi_coll_reserve(comm->coll, half_bytes(comm->coll, x),
                                        err, sizeof err) != MPI_SUCCESS) {
        shmpi_coll_refuse(comm->coll, 0);
        return shmpi_raise(comm, MPI_ERR_NO_MEM, fn, "%s", err);
    }
    shmpi_coll_xchg(comm->coll, x);
    if (x->truncated_by < 0)
        return shmpi_coll_outcome(comm->coll, comm, fn);
    return shmpi_raise(comm, MPI_ERR_TRUNCATE, fn,
                       "rank %d sent more data than the receive buffer "
                       "holds", x->truncated_by);
}
