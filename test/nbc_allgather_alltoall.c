/* nbc_allgather_alltoall: MPI_Iallgather(v) and MPI_Ialltoall(v,w) of int, double, vector and struct types, uneven and zero counts, displacements out of order, MPI_IN_PLACE, per-peer types, blocks of several MiB, a derived type freed while the call is in flight, several outstanding at once; errors (same classes as the blocking calls). */
/* shmpi-test: np=1,2,3,4,7,16 timeout=120 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "coll_types.h"

static int rank, size;

/* Open MPI 4.1's libnbc (the --ref run) returns wrong data from in-place
   MPI_Ialltoallv/w with large blocks on an odd number of processes; the
   blocking calls and small blocks are right.  Those cases are for shmpi
   only. */
#ifdef OPEN_MPI
#define LIBNBC_IN_PLACE_BUG 1
#else
#define LIBNBC_IN_PLACE_BUG 0
#endif

#define SEED_STEP_PER_SENDER 100
static int seed_of(int s, int d) { return 1 + s * SEED_STEP_PER_SENDER + d; }
/* Elements rank s sends to rank d in the v/w tests. */
static int pair_count(int s, int d, int scale)
{
    return ((s * 3 + d * 5) % 4) * scale;
}

static void wait_one(MPI_Request *req)
{
    CHECK_MPI(MPI_Wait(req, MPI_STATUS_IGNORE));
    CHECK(*req == MPI_REQUEST_NULL, "a completed request is not freed");
}

static void iallgather(const struct ttype *tt, long count, int in_place)
{
    void *send = tt_alloc(tt, count), *recv = tt_alloc(tt, count * size + 1);
    tt_fill(tt, in_place ? recv : send, in_place ? count * rank : 0, count,
            40 + rank);
    MPI_Request req;
    CHECK_MPI(MPI_Iallgather(in_place ? MPI_IN_PLACE : send, (int)count,
                             tt->t, recv, (int)count, tt->t, MPI_COMM_WORLD,
                             &req));
    wait_one(&req);
    char ctx[64];
    snprintf(ctx, sizeof ctx, "iallgather of %ld, in place %d", count,
             in_place);
    tt_expect_blocks(tt, recv, size, count, 40, 1, ctx);
    free(send);
    free(recv);
}

static void iallgatherv(const struct ttype *tt, int scale, int in_place)
{
    int *counts = malloc(2 * sizeof(int) * (size_t)size), *displs;
    CHECK(counts, "out of memory");
    displs = counts + size;
    long total = 0;
    for (int r = size - 1; r >= 0; r--) { /* backwards, with gaps */
        counts[r] = ((r * 5 + 1) % 4) * scale;
        displs[r] = (int)total;
        total += counts[r] + 1;
    }
    int mine = counts[rank], seed = 9 + rank * 3 + scale;
    void *send = tt_alloc(tt, mine), *recv = tt_alloc(tt, total);
    tt_fill(tt, in_place ? recv : send, in_place ? displs[rank] : 0, mine,
            seed);
    MPI_Request req;
    CHECK_MPI(MPI_Iallgatherv(in_place ? MPI_IN_PLACE : send, mine, tt->t,
                              recv, counts, displs, tt->t, MPI_COMM_WORLD,
                              &req));
    wait_one(&req);
    char ctx[64];
    snprintf(ctx, sizeof ctx, "iallgatherv, scale %d, in place %d", scale,
             in_place);
    tt_expect_vblocks(tt, recv, size, counts, displs, 1, 9 + scale, 3, ctx);
    free(send);
    free(recv);
    free(counts);
}

static void ialltoall(const struct ttype *tt, long count, int in_place)
{
    void *send = tt_alloc(tt, count * size);
    void *recv = tt_alloc(tt, count * size + 1);
    for (int d = 0; d < size; d++)
        tt_fill(tt, in_place ? recv : send, count * d, count,
                seed_of(rank, d));
    MPI_Request req;
    CHECK_MPI(MPI_Ialltoall(in_place ? MPI_IN_PLACE : send, (int)count,
                            tt->t, recv, (int)count, tt->t, MPI_COMM_WORLD,
                            &req));
    wait_one(&req);
    char ctx[64];
    snprintf(ctx, sizeof ctx, "ialltoall of %ld, in place %d", count,
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
        counts[p] = sending ? pair_count(rank, p, scale)
                            : pair_count(p, rank, scale);
        displs[p] = (int)total;
        total += counts[p] + 1;
    }
    return total;
}

static void ialltoallv(const struct ttype *tt, int scale)
{
    int *sc = malloc(4 * sizeof(int) * (size_t)size), *sd, *rc, *rd;
    CHECK(sc, "out of memory");
    sd = sc + size;
    rc = sd + size;
    rd = rc + size;
    long stotal = layout(sc, sd, scale, 1), rtotal = layout(rc, rd, scale, 0);
    void *send = tt_alloc(tt, stotal), *recv = tt_alloc(tt, rtotal);
    for (int d = 0; d < size; d++)
        tt_fill(tt, send, sd[d], sc[d], seed_of(rank, d));
    MPI_Request req;
    CHECK_MPI(MPI_Ialltoallv(send, sc, sd, tt->t, recv, rc, rd, tt->t,
                             MPI_COMM_WORLD, &req));
    wait_one(&req);
    char ctx[64];
    snprintf(ctx, sizeof ctx, "ialltoallv, scale %d", scale);
    tt_expect_vblocks(tt, recv, size, rc, rd, 1, seed_of(0, rank),
                      SEED_STEP_PER_SENDER, ctx);
    free(send);
    free(recv);
    free(sc);
}

/* In place, v counts: symmetric, so the block for d and from d have one
   size. */
static void ialltoallv_in_place(const struct ttype *tt, int scale)
{
    int *c = malloc(2 * sizeof(int) * (size_t)size), *dsp;
    CHECK(c, "out of memory");
    dsp = c + size;
    long total = 0;
    for (int p = 0; p < size; p++) {
        c[p] = ((rank + p) % 3) * scale;
        dsp[p] = (int)total;
        total += c[p] + 1;
    }
    void *buf = tt_alloc(tt, total);
    for (int d = 0; d < size; d++)
        tt_fill(tt, buf, dsp[d], c[d], seed_of(rank, d));
    MPI_Request req;
    CHECK_MPI(MPI_Ialltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL,
                             buf, c, dsp, tt->t, MPI_COMM_WORLD, &req));
    wait_one(&req);
    char ctx[64];
    snprintf(ctx, sizeof ctx, "ialltoallv in place, scale %d", scale);
    for (int s = 0; s < size; s++) {
        tt_expect(tt, buf, dsp[s], c[s], seed_of(s, rank), 0, ctx);
        CHECK(tt_untouched(tt, buf, dsp[s] + c[s], 1), "%s: gap written",
              ctx);
    }
    free(buf);
    free(c);
}

/* To rank d the ttype (rank + d) % NTYPES, one block after the other in
   one buffer (byte displacements); in place: the receive side only. */
static void ialltoallw(int scale, int in_place)
{
    int *sc = malloc(4 * sizeof(int) * (size_t)size), *sd, *rc, *rd;
    MPI_Datatype *st = malloc(2 * sizeof(MPI_Datatype) * (size_t)size), *rt;
    CHECK(sc && st, "out of memory");
    sd = sc + size;
    rc = sd + size;
    rd = rc + size;
    rt = st + size;
    long sbytes = 0, rbytes = 0;
    for (int p = 0; p < size; p++) {
        const struct ttype *tp = &tt_all[(rank + p) % NTYPES];
        /* in place: symmetric counts, what s sends d is what d sends s */
        sc[p] = in_place ? pair_count(rank + p, 0, scale)
                         : pair_count(rank, p, scale);
        rc[p] = in_place ? sc[p] : pair_count(p, rank, scale);
        sd[p] = (int)sbytes;
        rd[p] = (int)rbytes;
        st[p] = rt[p] = tp->t; /* the sender uses (p + rank) % NTYPES too */
        sbytes += (sc[p] + 1) * tp->extent;
        rbytes += (rc[p] + 1) * tp->extent;
    }
    char *send = malloc(sbytes + 1), *recv = malloc(rbytes + 1);
    CHECK(send && recv, "out of memory");
    memset(send, SENTINEL, sbytes + 1);
    memset(recv, SENTINEL, rbytes + 1);
    for (int d = 0; d < size; d++)
        tt_fill(&tt_all[(rank + d) % NTYPES],
                in_place ? recv + rd[d] : send + sd[d], 0, sc[d],
                seed_of(rank, d));
    MPI_Request req;
    CHECK_MPI(MPI_Ialltoallw(in_place ? MPI_IN_PLACE : send, sc, sd, st,
                             recv, rc, rd, rt, MPI_COMM_WORLD, &req));
    wait_one(&req);
    char ctx[64];
    snprintf(ctx, sizeof ctx, "ialltoallw, scale %d, in place %d", scale,
             in_place);
    for (int s = 0; s < size; s++) {
        const struct ttype *tt = &tt_all[(rank + s) % NTYPES];
        tt_expect(tt, recv + rd[s], 0, rc[s], seed_of(s, rank), 0, ctx);
        CHECK(tt_untouched(tt, recv + rd[s], rc[s], 1), "%s: gap after "
              "block %d written", ctx, s);
    }
    free(send);
    free(recv);
    free(sc);
    free(st);
}

/* 5.12: the program may free a datatype once the call that uses it has
   returned. */
static void type_freed_in_flight(void)
{
    MPI_Datatype pair;
    CHECK_MPI(MPI_Type_vector(2, 1, 3, MPI_INT, &pair));
    CHECK_MPI(MPI_Type_commit(&pair));
    int *send = malloc(4 * sizeof(int) * (size_t)size); /* extent: 4 */
    int *recv = malloc(2 * sizeof(int) * (size_t)size);
    CHECK(send && recv, "out of memory");
    for (int d = 0; d < size; d++) {
        send[4 * d] = rank * 1000 + d;
        send[4 * d + 3] = -(rank * 1000 + d);
    }
    MPI_Request req;
    MPI_Datatype keep = pair;
    CHECK_MPI(MPI_Ialltoall(send, 1, pair, recv, 2, MPI_INT, MPI_COMM_WORLD,
                            &req));
    CHECK_MPI(MPI_Type_free(&keep));
    wait_one(&req);
    for (int s = 0; s < size; s++)
        CHECK(recv[2 * s] == s * 1000 + rank &&
                  recv[2 * s + 1] == -(s * 1000 + rank),
              "type freed in flight: from %d got %d %d", s, recv[2 * s],
              recv[2 * s + 1]);
    free(send);
    free(recv);
}

/* Several of each outstanding at once, completed in one Waitall. */
static void many_outstanding(void)
{
    enum { K = 6 };
    MPI_Request reqs[2 * K];
    int *ag = malloc(sizeof(int) * (size_t)size * K);
    int *a2a_s = malloc(sizeof(int) * (size_t)size * K);
    int *a2a_r = malloc(sizeof(int) * (size_t)size * K);
    CHECK(ag && a2a_s && a2a_r, "out of memory");
    int mine[K];
    for (int k = 0; k < K; k++) {
        mine[k] = rank * 10 + k;
        for (int d = 0; d < size; d++)
            a2a_s[k * size + d] = k * 100000 + rank * 100 + d;
        CHECK_MPI(MPI_Iallgather(&mine[k], 1, MPI_INT, ag + k * size, 1,
                                 MPI_INT, MPI_COMM_WORLD, &reqs[2 * k]));
        CHECK_MPI(MPI_Ialltoall(a2a_s + k * size, 1, MPI_INT,
                                a2a_r + k * size, 1, MPI_INT,
                                MPI_COMM_WORLD, &reqs[2 * k + 1]));
    }
    CHECK_MPI(MPI_Waitall(2 * K, reqs, MPI_STATUSES_IGNORE));
    for (int k = 0; k < K; k++)
        for (int s = 0; s < size; s++) {
            CHECK(ag[k * size + s] == s * 10 + k, "iallgather %d: block "
                  "%d is %d", k, s, ag[k * size + s]);
            CHECK(a2a_r[k * size + s] == k * 100000 + s * 100 + rank,
                  "ialltoall %d: block %d is %d", k, s, a2a_r[k * size + s]);
        }
    free(ag);
    free(a2a_s);
    free(a2a_r);
}

static void errors(void)
{
    int x[64] = {0}, y[64];
    MPI_Comm comm = MPI_COMM_WORLD;
    MPI_Request req = MPI_REQUEST_NULL;
    CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
    CHECK_CLASS(MPI_Iallgather(x, -1, MPI_INT, y, 1, MPI_INT, comm, &req),
                MPI_ERR_COUNT);
    MPI_Datatype loose;
    CHECK_MPI(MPI_Type_contiguous(1, MPI_INT, &loose));
    CHECK_CLASS(MPI_Iallgather(x, 1, loose, y, 1, MPI_INT, comm, &req),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Ialltoall(x, 1, loose, y, 1, MPI_INT, comm, &req),
                MPI_ERR_TYPE);
    CHECK_MPI(MPI_Type_free(&loose));
    CHECK_CLASS(MPI_Iallgather(x, 1, MPI_INT, y, 1, MPI_DATATYPE_NULL, comm,
                               &req),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Ialltoall(x, -1, MPI_INT, y, 1, MPI_INT, comm, &req),
                MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Ialltoallv(x, x, x, MPI_INT, y, x, x, MPI_INT,
                               MPI_COMM_NULL, &req),
                MPI_ERR_COMM);
    CHECK(req == MPI_REQUEST_NULL, "a failed call set the request");
    CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    tt_init();

    long counts[] = {0, 1, 5, 300};
    for (int k = 0; k < NTYPES; k++) {
        for (size_t c = 0; c < sizeof counts / sizeof *counts; c++)
            for (int in_place = 0; in_place < 2; in_place++) {
                iallgather(&tt_all[k], counts[c], in_place);
                ialltoall(&tt_all[k], counts[c], in_place);
            }
        iallgatherv(&tt_all[k], 1, k % 2);
        iallgatherv(&tt_all[k], 200, (k + 1) % 2);
        ialltoallv(&tt_all[k], 1);
        ialltoallv(&tt_all[k], 300);
        ialltoallv_in_place(&tt_all[k], 2);
        ialltoallv_in_place(&tt_all[k], 40);
        if (!LIBNBC_IN_PLACE_BUG)
            ialltoallv_in_place(&tt_all[k], 3000);
    }
    for (int in_place = 0; in_place < 2; in_place++) {
        ialltoallw(1, in_place);
        if (!in_place || !LIBNBC_IN_PLACE_BUG)
            ialltoallw(500, in_place);
    }
    /* far above the eager size */
    long big = size > 8 ? 8000 : 200000;
    ialltoall(&tt_all[0], big, 0);
    ialltoall(&tt_all[3], big / 8, 1);
    iallgather(&tt_all[1], big / 2, 0);

    type_freed_in_flight();
    many_outstanding();
    errors();
    tt_free();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
