/* coll_alltoall: MPI_Alltoall, MPI_Alltoallv and MPI_Alltoallw with int, double, vector and struct types, uneven and zero counts, MPI_IN_PLACE for all three (small and in rounds), per-peer types, blocks of several MiB, many in a row; errors (negative count, uncommitted type, NULL arrays). */
/* shmpi-test: np=1,2,3,4,7,16 timeout=120 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "coll_types.h"

static int rank, size;

/* Elements rank s sends to rank d in the v/w tests. */
static int vcount(int s, int d, int scale) { return ((s * 3 + d * 5) % 4) * scale; }
#define SEED_STEP_PER_SENDER 100
static int seed_of(int s, int d) { return 1 + s * SEED_STEP_PER_SENDER + d; }

static void alltoall(const struct ttype *tt, long count, int in_place)
{
    void *send = tt_alloc(tt, count * size);
    void *recv = tt_alloc(tt, count * size + 1);
    for (int d = 0; d < size; d++)
        tt_fill(tt, in_place ? recv : send, count * d, count,
                seed_of(rank, d));
    CHECK_MPI(MPI_Alltoall(in_place ? MPI_IN_PLACE : send, (int)count, tt->t,
                           recv, (int)count, tt->t, MPI_COMM_WORLD));
    char ctx[64];
    snprintf(ctx, sizeof ctx, "alltoall of %ld, in place %d", count,
             in_place);
    tt_expect_blocks(tt, recv, size, count, seed_of(0, rank),
                     SEED_STEP_PER_SENDER, ctx);
    free(send);
    free(recv);
}

/* Blocks laid out backwards with one free element between them. */
static long layout(int *counts, int *displs, int scale, int sending)
{
    long total = 0;
    for (int p = size - 1; p >= 0; p--) {
        counts[p] = sending ? vcount(rank, p, scale) : vcount(p, rank, scale);
        displs[p] = (int)total;
        total += counts[p] + 1;
    }
    return total;
}

static void alltoallv(const struct ttype *tt, int scale)
{
    int *sc = malloc(4 * sizeof(int) * size), *sd = sc + size,
        *rc = sd + size, *rd = rc + size;
    CHECK(sc, "out of memory");
    long stotal = layout(sc, sd, scale, 1), rtotal = layout(rc, rd, scale, 0);
    void *send = tt_alloc(tt, stotal), *recv = tt_alloc(tt, rtotal);
    for (int d = 0; d < size; d++)
        tt_fill(tt, send, sd[d], sc[d], seed_of(rank, d));
    CHECK_MPI(MPI_Alltoallv(send, sc, sd, tt->t, recv, rc, rd, tt->t,
                            MPI_COMM_WORLD));
    char ctx[64];
    snprintf(ctx, sizeof ctx, "alltoallv, scale %d", scale);
    tt_expect_vblocks(tt, recv, size, rc, rd, 1, seed_of(0, rank),
                      SEED_STEP_PER_SENDER, ctx);
    free(send);
    free(recv);
    free(sc);
}

/* In place with v counts: symmetric counts, so that the block for d and
   the block from d have one size. */
static void alltoallv_in_place(const struct ttype *tt, int scale)
{
    int *c = malloc(2 * sizeof(int) * size), *dsp = c + size;
    CHECK(c, "out of memory");
    long total = 0;
    for (int p = 0; p < size; p++) {
        c[p] = ((rank + p) % 3) * scale;
        dsp[p] = (int)total;
        total += c[p] + 1;
    }
    void *buf = tt_alloc(tt, total);
    for (int d = 0; d < size; d++)
        tt_fill(tt, buf, dsp[d], c[d], seed_of(rank, d));
    CHECK_MPI(MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, buf,
                            c, dsp, tt->t, MPI_COMM_WORLD));
    char ctx[64];
    snprintf(ctx, sizeof ctx, "alltoallv in place, scale %d", scale);
    for (int s = 0; s < size; s++) {
        tt_expect(tt, buf, dsp[s], c[s], seed_of(s, rank), 0, ctx);
        CHECK(tt_untouched(tt, buf, dsp[s] + c[s], 1), "%s: gap written",
              ctx);
    }
    free(buf);
    free(c);
}

/* Alltoallw: to rank d the ttype (rank + d) % NTYPES, packed one after
   the other in one buffer (byte displacements). */
static void alltoallw(int scale)
{
    int *sc = malloc(4 * sizeof(int) * size), *sd = sc + size,
        *rc = sd + size, *rd = rc + size;
    MPI_Datatype *st = malloc(2 * sizeof(MPI_Datatype) * size), *rt = st + size;
    CHECK(sc && st, "out of memory");
    long sbytes = 0, rbytes = 0;
    for (int p = 0; p < size; p++) {
        const struct ttype *ts = &tt_all[(rank + p) % NTYPES];
        sc[p] = vcount(rank, p, scale);
        sd[p] = (int)sbytes;
        st[p] = ts->t;
        sbytes += (sc[p] + 1) * ts->extent;
        rc[p] = vcount(p, rank, scale);
        rd[p] = (int)rbytes;
        rt[p] = ts->t; /* the sender uses (p + rank) % NTYPES too */
        rbytes += (rc[p] + 1) * ts->extent;
    }
    char *send = malloc(sbytes + 1), *recv = malloc(rbytes + 1);
    CHECK(send && recv, "out of memory");
    memset(send, SENTINEL, sbytes + 1);
    memset(recv, SENTINEL, rbytes + 1);
    for (int d = 0; d < size; d++)
        tt_fill(&tt_all[(rank + d) % NTYPES], send + sd[d], 0, sc[d],
                seed_of(rank, d));
    CHECK_MPI(MPI_Alltoallw(send, sc, sd, st, recv, rc, rd, rt,
                            MPI_COMM_WORLD));
    for (int s = 0; s < size; s++) {
        const struct ttype *tt = &tt_all[(rank + s) % NTYPES];
        tt_expect(tt, recv + rd[s], 0, rc[s], seed_of(s, rank), 0,
                  "alltoallw");
        CHECK(tt_untouched(tt, recv + rd[s], rc[s], 1), "alltoallw: gap "
              "after block %d written", s);
    }
    free(send);
    free(recv);
    free(sc);
    free(st);
}

/* Alltoallw in place: the per-peer types of alltoallw and the counts of
   alltoallv_in_place, both symmetric, so that the block for d and the
   block from d have one type signature. */
static void alltoallw_in_place(int scale)
{
    int *c = malloc(2 * sizeof(int) * size), *dsp = c + size;
    MPI_Datatype *t = malloc(sizeof(MPI_Datatype) * size);
    CHECK(c && t, "out of memory");
    long bytes = 0;
    for (int p = 0; p < size; p++) {
        const struct ttype *tt = &tt_all[(rank + p) % NTYPES];
        c[p] = ((rank + p) % 3) * scale;
        dsp[p] = (int)bytes;
        t[p] = tt->t;
        bytes += (c[p] + 1) * tt->extent;
    }
    char *buf = malloc(bytes);
    CHECK(buf, "out of memory");
    memset(buf, SENTINEL, bytes);
    for (int d = 0; d < size; d++)
        tt_fill(&tt_all[(rank + d) % NTYPES], buf + dsp[d], 0, c[d],
                seed_of(rank, d));
    CHECK_MPI(MPI_Alltoallw(MPI_IN_PLACE, NULL, NULL, NULL, buf, c, dsp, t,
                            MPI_COMM_WORLD));
    char ctx[64];
    snprintf(ctx, sizeof ctx, "alltoallw in place, scale %d", scale);
    for (int s = 0; s < size; s++) {
        const struct ttype *tt = &tt_all[(rank + s) % NTYPES];
        tt_expect(tt, buf + dsp[s], 0, c[s], seed_of(s, rank), 0, ctx);
        CHECK(tt_untouched(tt, buf + dsp[s], c[s], 1), "%s: gap after block "
              "%d written", ctx, s);
    }
    free(buf);
    free(c);
    free(t);
}

static void errors(void)
{
    int x[64] = {0}, y[64];
    MPI_Comm comm = MPI_COMM_WORLD;
    CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
    CHECK_CLASS(MPI_Alltoall(x, -1, MPI_INT, y, 1, MPI_INT, comm),
                MPI_ERR_COUNT);
    MPI_Datatype loose;
    CHECK_MPI(MPI_Type_contiguous(1, MPI_INT, &loose));
    CHECK_CLASS(MPI_Alltoall(x, 1, loose, y, 1, MPI_INT, comm),
                MPI_ERR_TYPE);
    CHECK_MPI(MPI_Type_free(&loose));
    CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    tt_init();

    long counts[] = {0, 1, 3, 200};
    for (int k = 0; k < NTYPES; k++) {
        for (size_t c = 0; c < sizeof counts / sizeof *counts; c++)
            for (int in_place = 0; in_place < 2; in_place++)
                alltoall(&tt_all[k], counts[c], in_place);
        alltoallv(&tt_all[k], 1);
        alltoallv(&tt_all[k], 300);
        alltoallv_in_place(&tt_all[k], 2);
        alltoallv_in_place(&tt_all[k], 3000); /* rounds: copied aside */
    }
    alltoallw(1);
    alltoallw(500);
    alltoallw_in_place(2);
    alltoallw_in_place(3000); /* rounds: copied aside */
    long big = size > 8 ? 8000 : 200000;
    alltoall(&tt_all[0], big, 0);
    alltoall(&tt_all[3], big / 8, 1);

    for (int i = 0; i < 1000; i++)
        alltoall(&tt_all[i % 2], 1 + i % 3, i % 7 == 0);

    errors();
    tt_free();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
