/* inter_coll_data: the data-movement collectives on an intercommunicator of two unequal groups, blocking and nonblocking: barrier really waits for the other group, bcast/gather(v)/scatter(v) from every root of either group (MPI_ROOT, MPI_PROC_NULL), allgather(v) and alltoall(v,w) with different counts in the two directions, int, double, vector and struct types, zero counts, blocks of a MiB, several requests in flight; bad roots. */
/* shmpi-test: np=2,3,4,7,16 timeout=120 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "coll_types.h"

/* Open MPI 4.1's libnbc (the --ref run) lets MPI_Ibarrier on an
   intercommunicator complete when only the other group's rank 0 has
   entered; the check is for shmpi only. */
#ifdef OPEN_MPI
#define LIBNBC_INTER_IBARRIER_BUG 1
#else
#define LIBNBC_INTER_IBARRIER_BUG 0
#endif

static int rank, size, color, lrank, lsize, rsize;
static MPI_Comm inter;

/* Seed of what process a of group c sends to process b of the other. */
static int seed(int c, int a, int b) { return c * 10000 + a * 100 + b + 1; }
/* Elements group c sends per block in the allgather/alltoall tests. */
static long cnt(int c, long count) { return c ? count : count / 2 + 1; }
/* Block of process r of group c in the v tests. */
static int vcount(int c, int r, int scale)
{
    return ((r * 5 + c * 3 + 1) % 4) * scale;
}

/* Blocks of the n processes of group c, laid out backwards with a gap
   of 2 elements after each; returns the elements spanned. */
static long vlayout(int c, int n, int scale, int *counts, int *displs)
{
    long total = 0;
    for (int r = n - 1; r >= 0; r--) {
        counts[r] = vcount(c, r, scale);
        displs[r] = (int)total;
        total += counts[r] + 2;
    }
    return total;
}

static int *int_array(int n)
{
    int *p = malloc((size_t)(n > 0 ? n : 1) * sizeof *p);
    CHECK(p, "out of memory");
    return p;
}

static void finish(int nb, MPI_Request *req)
{
    if (nb)
        CHECK_MPI(MPI_Wait(req, MPI_STATUS_IGNORE));
}

/* The root argument of the process: MPI_ROOT at the root, MPI_PROC_NULL
   in the rest of its group, the root's rank in the other group. */
static int root_arg(int root_group, int root)
{
    if (color != root_group)
        return root;
    return lrank == root ? MPI_ROOT : MPI_PROC_NULL;
}

/* The group of world rank w. */
static int group_of(int w) { return w % 3 != 0; }

/* Records (world rank, round) of the other group for `round` in the
   file. */
static int remote_records(int fd, int round)
{
    int rec[2], n = 0;
    for (off_t at = 0; pread(fd, rec, sizeof rec, at) == (ssize_t)sizeof rec;
         at += sizeof rec)
        n += rec[1] == round && group_of(rec[0]) != color;
    return n;
}

/* 5.3: an intercommunicator barrier returns only after every process of
   the other group has entered it (its own group may still be on its
   way: only our barrier waits for both). */
static void ibarrier_waits(int nb, int rounds)
{
    char dir[512], path[700];
    test_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/inter_barrier_%d.log", dir, nb);
    if (rank == 0) {
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        CHECK(fd >= 0, "create %s: %s", path, strerror(errno));
        close(fd);
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    int fd = open(path, O_RDWR | O_APPEND);
    CHECK(fd >= 0, "open %s: %s", path, strerror(errno));
    for (int round = 0; round < rounds; round++) {
        if (round % 8 == rank % 8) /* arrive late: 1 ms */
            nanosleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
        int rec[2] = {rank, round};
        CHECK(write(fd, rec, sizeof rec) == (ssize_t)sizeof rec, "write");
        MPI_Request req;
        if (nb)
            CHECK_MPI(MPI_Ibarrier(inter, &req));
        else
            CHECK_MPI(MPI_Barrier(inter));
        finish(nb, &req);
        int have = remote_records(fd, round);
        CHECK(have == rsize || (nb && LIBNBC_INTER_IBARRIER_BUG), "round %d, nb %d: %d records of the other "
              "group after the intercomm barrier, expected %d", round, nb,
              have, rsize);
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    }
    close(fd);
    if (rank == 0)
        unlink(path);
}

static void bcast(const struct ttype *tt, long count, int root_group,
                  int root, int nb)
{
    int r = root_arg(root_group, root), s = seed(root_group, root, 0);
    void *buf = tt_alloc(tt, count + 1);
    if (r == MPI_ROOT)
        tt_fill(tt, buf, 0, count, s);
    MPI_Request req;
    if (nb)
        CHECK_MPI(MPI_Ibcast(buf, (int)count, tt->t, r, inter, &req));
    else
        CHECK_MPI(MPI_Bcast(buf, (int)count, tt->t, r, inter));
    finish(nb, &req);
    char ctx[80];
    snprintf(ctx, sizeof ctx, "bcast of %ld from %d:%d, nb %d", count,
             root_group, root, nb);
    if (r == MPI_ROOT || color != root_group)
        tt_expect(tt, buf, 0, count, s, 0, ctx);
    else
        CHECK(tt_untouched(tt, buf, 0, count + 1), "%s: buffer written at "
              "MPI_PROC_NULL", ctx);
    CHECK(tt_untouched(tt, buf, count, 1), "%s: written past count", ctx);
    free(buf);
}

static void gather(const struct ttype *tt, long count, int root_group,
                   int root, int nb, int v)
{
    int r = root_arg(root_group, root);
    int *counts = int_array(rsize), *displs = int_array(rsize);
    long total = v ? vlayout(!root_group, rsize, (int)count, counts, displs)
                   : count * rsize;
    long mine = v ? vcount(color, lrank, (int)count) : count;
    void *send = tt_alloc(tt, mine), *recv = tt_alloc(tt, total + 1);
    tt_fill(tt, send, 0, mine, seed(color, lrank, 0));
    MPI_Request req;
    if (v && nb)
        CHECK_MPI(MPI_Igatherv(send, (int)mine, tt->t, recv, counts, displs,
                               tt->t, r, inter, &req));
    else if (v)
        CHECK_MPI(MPI_Gatherv(send, (int)mine, tt->t, recv, counts, displs,
                              tt->t, r, inter));
    else if (nb)
        CHECK_MPI(MPI_Igather(send, (int)count, tt->t, recv, (int)count,
                              tt->t, r, inter, &req));
    else
        CHECK_MPI(MPI_Gather(send, (int)count, tt->t, recv, (int)count,
                             tt->t, r, inter));
    finish(nb, &req);
    char ctx[80];
    snprintf(ctx, sizeof ctx, "gather%s of %ld to %d:%d, nb %d", v ? "v" : "",
             count, root_group, root, nb);
    if (r == MPI_ROOT) {
        for (int i = 0; i < rsize; i++)
            tt_expect(tt, recv, v ? displs[i] : count * i,
                      v ? counts[i] : count, seed(!color, i, 0), 0, ctx);
    } else {
        CHECK(tt_untouched(tt, recv, 0, total + 1), "%s: recvbuf written "
              "off the root", ctx);
    }
    free(send);
    free(recv);
    free(counts);
    free(displs);
}

static void scatter(const struct ttype *tt, long count, int root_group,
                    int root, int nb, int v)
{
    int r = root_arg(root_group, root);
    int *counts = int_array(rsize), *displs = int_array(rsize);
    long total = v ? vlayout(!root_group, rsize, (int)count, counts, displs)
                   : count * rsize;
    long mine = v ? vcount(color, lrank, (int)count) : count;
    void *send = tt_alloc(tt, total), *recv = tt_alloc(tt, mine + 1);
    for (int i = 0; r == MPI_ROOT && i < rsize; i++)
        tt_fill(tt, send, v ? displs[i] : count * i, v ? counts[i] : count,
                seed(color, lrank, i));
    MPI_Request req;
    if (v && nb)
        CHECK_MPI(MPI_Iscatterv(send, counts, displs, tt->t, recv, (int)mine,
                                tt->t, r, inter, &req));
    else if (v)
        CHECK_MPI(MPI_Scatterv(send, counts, displs, tt->t, recv, (int)mine,
                               tt->t, r, inter));
    else if (nb)
        CHECK_MPI(MPI_Iscatter(send, (int)count, tt->t, recv, (int)count,
                               tt->t, r, inter, &req));
    else
        CHECK_MPI(MPI_Scatter(send, (int)count, tt->t, recv, (int)count,
                              tt->t, r, inter));
    finish(nb, &req);
    char ctx[80];
    snprintf(ctx, sizeof ctx, "scatter%s of %ld from %d:%d, nb %d",
             v ? "v" : "", count, root_group, root, nb);
    if (color != root_group)
        tt_expect(tt, recv, 0, mine, seed(root_group, root, lrank), 0, ctx);
    else
        CHECK(tt_untouched(tt, recv, 0, mine), "%s: recvbuf written in the "
              "root's group", ctx);
    CHECK(tt_untouched(tt, recv, mine, 1), "%s: written past the end", ctx);
    free(send);
    free(recv);
    free(counts);
    free(displs);
}

/* Every process gets the other group's blocks; the two groups send
   blocks of different lengths. */
static void allgather(const struct ttype *tt, long count, int nb, int v)
{
    int *counts = int_array(rsize), *displs = int_array(rsize);
    long total = v ? vlayout(!color, rsize, (int)count, counts, displs)
                   : cnt(!color, count) * rsize;
    long mine = v ? vcount(color, lrank, (int)count) : cnt(color, count);
    long in = cnt(!color, count);
    void *send = tt_alloc(tt, mine), *recv = tt_alloc(tt, total + 1);
    tt_fill(tt, send, 0, mine, seed(color, lrank, 0));
    MPI_Request req;
    if (v && nb)
        CHECK_MPI(MPI_Iallgatherv(send, (int)mine, tt->t, recv, counts,
                                  displs, tt->t, inter, &req));
    else if (v)
        CHECK_MPI(MPI_Allgatherv(send, (int)mine, tt->t, recv, counts, displs,
                                 tt->t, inter));
    else if (nb)
        CHECK_MPI(MPI_Iallgather(send, (int)mine, tt->t, recv, (int)in, tt->t,
                                 inter, &req));
    else
        CHECK_MPI(MPI_Allgather(send, (int)mine, tt->t, recv, (int)in, tt->t,
                                inter));
    finish(nb, &req);
    char ctx[80];
    snprintf(ctx, sizeof ctx, "allgather%s of %ld, nb %d", v ? "v" : "",
             count, nb);
    for (int i = 0; i < rsize; i++)
        tt_expect(tt, recv, v ? displs[i] : in * i, v ? counts[i] : in,
                  seed(!color, i, 0), 0, ctx);
    CHECK(tt_untouched(tt, recv, total, 1), "%s: written past the end", ctx);
    free(send);
    free(recv);
    free(counts);
    free(displs);
}

/* Block i to remote process i; the two directions differ in length. */
static void alltoall(const struct ttype *tt, long count, int nb)
{
    long out = cnt(color, count), in = cnt(!color, count);
    void *send = tt_alloc(tt, out * rsize), *recv = tt_alloc(tt, in * rsize + 1);
    for (int i = 0; i < rsize; i++)
        tt_fill(tt, send, out * i, out, seed(color, lrank, i));
    MPI_Request req;
    if (nb)
        CHECK_MPI(MPI_Ialltoall(send, (int)out, tt->t, recv, (int)in, tt->t,
                                inter, &req));
    else
        CHECK_MPI(MPI_Alltoall(send, (int)out, tt->t, recv, (int)in, tt->t,
                               inter));
    finish(nb, &req);
    char ctx[80];
    snprintf(ctx, sizeof ctx, "alltoall of %ld, nb %d", count, nb);
    for (int i = 0; i < rsize; i++)
        tt_expect(tt, recv, in * i, in, seed(!color, i, lrank), 0, ctx);
    CHECK(tt_untouched(tt, recv, in * rsize, 1), "%s: written past the end",
          ctx);
    free(send);
    free(recv);
}

/* Pair (a of group 0, b of group 1) moves ((a + 2b) % 3) * scale elements
   each way, of type tt_all[(a + b) % NTYPES] in the w form. */
static int pair_count(int mine, int theirs, int scale)
{
    int a = color ? theirs : mine, b = color ? mine : theirs;
    return ((a + 2 * b) % 3) * scale;
}

static void alltoallvw(const struct ttype *tt, int scale, int nb, int w)
{
    int *sc = int_array(rsize), *sd = int_array(rsize);
    int *rc = int_array(rsize), *rd = int_array(rsize);
    MPI_Datatype *types = malloc((size_t)rsize * sizeof *types);
    CHECK(types, "out of memory");
    long sext = 0, rext = 0; /* bytes (w) or elements (v) */
    for (int i = rsize - 1; i >= 0; i--) {
        const struct ttype *ti = w ? &tt_all[(lrank + i) % NTYPES] : tt;
        types[i] = ti->t;
        sc[i] = rc[i] = pair_count(lrank, i, scale);
        sd[i] = (int)sext;
        rd[i] = (int)rext;
        sext += (sc[i] + 1) * (w ? ti->extent : 1);
        rext += (rc[i] + 1) * (w ? ti->extent : 1);
    }
    size_t sbytes = (size_t)(w ? sext : sext * tt->extent) + 1;
    size_t rbytes = (size_t)(w ? rext : rext * tt->extent) + 1;
    char *send = malloc(sbytes), *recv = malloc(rbytes);
    CHECK(send && recv, "out of memory");
    memset(send, SENTINEL, sbytes);
    memset(recv, SENTINEL, rbytes);
    for (int i = 0; i < rsize; i++) {
        const struct ttype *ti = w ? &tt_all[(lrank + i) % NTYPES] : tt;
        if (w)
            tt_fill(ti, send + sd[i], 0, sc[i], seed(color, lrank, i));
        else
            tt_fill(tt, send, sd[i], sc[i], seed(color, lrank, i));
    }
    MPI_Request req;
    if (w && nb)
        CHECK_MPI(MPI_Ialltoallw(send, sc, sd, types, recv, rc, rd, types,
                                 inter, &req));
    else if (w)
        CHECK_MPI(MPI_Alltoallw(send, sc, sd, types, recv, rc, rd, types,
                                inter));
    else if (nb)
        CHECK_MPI(MPI_Ialltoallv(send, sc, sd, tt->t, recv, rc, rd, tt->t,
                                 inter, &req));
    else
        CHECK_MPI(MPI_Alltoallv(send, sc, sd, tt->t, recv, rc, rd, tt->t,
                                inter));
    finish(nb, &req);
    char ctx[80];
    snprintf(ctx, sizeof ctx, "alltoall%s, scale %d, nb %d", w ? "w" : "v",
             scale, nb);
    for (int i = 0; i < rsize; i++) {
        const struct ttype *ti = w ? &tt_all[(lrank + i) % NTYPES] : tt;
        char *at = w ? recv + rd[i] : recv;
        long first = w ? 0 : rd[i];
        tt_expect(ti, at, first, rc[i], seed(!color, i, lrank), 0, ctx);
        CHECK(tt_untouched(ti, at, first + rc[i], 1), "%s: gap after block "
              "%d written", ctx, i);
    }
    free(send);
    free(recv);
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    free(types);
}

/* Several nonblocking collectives on the intercommunicator at once. */
static void many_in_flight(void)
{
    enum { K = 5 };
    MPI_Request reqs[3 * K];
    int *ag = int_array(K * rsize), *a2a_s = int_array(K * rsize);
    int *a2a_r = int_array(K * rsize), bc[K], mine[K];
    for (int k = 0; k < K; k++) {
        int root_group = k % 2, gsize = color == root_group ? lsize : rsize;
        int r = root_arg(root_group, k % gsize);
        bc[k] = r == MPI_ROOT ? 7000 + k : -1;
        mine[k] = seed(color, lrank, k);
        for (int i = 0; i < rsize; i++)
            a2a_s[k * rsize + i] = seed(color, lrank, i) + k;
        CHECK_MPI(MPI_Ibcast(&bc[k], 1, MPI_INT, r, inter, &reqs[3 * k]));
        CHECK_MPI(MPI_Iallgather(&mine[k], 1, MPI_INT, ag + k * rsize, 1,
                                 MPI_INT, inter, &reqs[3 * k + 1]));
        CHECK_MPI(MPI_Ialltoall(a2a_s + k * rsize, 1, MPI_INT,
                                a2a_r + k * rsize, 1, MPI_INT, inter,
                                &reqs[3 * k + 2]));
    }
    CHECK_MPI(MPI_Waitall(3 * K, reqs, MPI_STATUSES_IGNORE));
    for (int k = 0; k < K; k++) {
        int root_group = k % 2;
        if (color != root_group)
            CHECK(bc[k] == 7000 + k, "ibcast %d in flight: %d", k, bc[k]);
        for (int i = 0; i < rsize; i++) {
            CHECK(ag[k * rsize + i] == seed(!color, i, k), "iallgather %d: "
                  "block %d is %d", k, i, ag[k * rsize + i]);
            CHECK(a2a_r[k * rsize + i] == seed(!color, i, lrank) + k,
                  "ialltoall %d: block %d is %d", k, i, a2a_r[k * rsize + i]);
        }
    }
    free(ag);
    free(a2a_s);
    free(a2a_r);
}

static void errors(void)
{
    int x[4] = {0};
    MPI_Request req = MPI_REQUEST_NULL;
    CHECK_MPI(MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN));
    CHECK_CLASS(MPI_Bcast(x, 1, MPI_INT, rsize, inter), MPI_ERR_ROOT);
    CHECK_CLASS(MPI_Ibcast(x, 1, MPI_INT, -7, inter, &req), MPI_ERR_ROOT);
    CHECK_CLASS(MPI_Gather(x, 1, MPI_INT, x, 1, MPI_INT, rsize + 3, inter),
                MPI_ERR_ROOT);
    CHECK_CLASS(MPI_Iscatter(x, 1, MPI_INT, x, 1, MPI_INT, rsize, inter,
                             &req),
                MPI_ERR_ROOT);
    CHECK(req == MPI_REQUEST_NULL, "a failed call set the request");
    CHECK_MPI(MPI_Comm_set_errhandler(inter, MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size >= 2, "needs two groups");
    tt_init();

    /* group 0: world ranks 0, 3, 6, ...; group 1: the others */
    MPI_Comm local;
    color = group_of(rank);
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, color, rank, &local));
    CHECK_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, color ? 0 : 1,
                                   77, &inter));
    CHECK_MPI(MPI_Comm_rank(inter, &lrank));
    CHECK_MPI(MPI_Comm_size(inter, &lsize));
    CHECK_MPI(MPI_Comm_remote_size(inter, &rsize));

    for (int nb = 0; nb < 2; nb++) {
        ibarrier_waits(nb, size > 8 ? 4 : 12);
        long counts[] = {0, 1, 300};
        for (int k = 0; k < NTYPES; k++)
            for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
                for (int g = 0; g < 2; g++) {
                    int gsize = g == color ? lsize : rsize;
                    for (int root = 0; root < gsize; root++) {
                        bcast(&tt_all[k], counts[c], g, root, nb);
                        gather(&tt_all[k], counts[c], g, root, nb, 0);
                        scatter(&tt_all[k], counts[c], g, root, nb, 0);
                    }
                    gather(&tt_all[k], counts[c], g, gsize - 1, nb, 1);
                    scatter(&tt_all[k], counts[c], g, 0, nb, 1);
                }
                allgather(&tt_all[k], counts[c], nb, 0);
                allgather(&tt_all[k], counts[c], nb, 1);
                alltoall(&tt_all[k], counts[c], nb);
                alltoallvw(&tt_all[k], (int)counts[c], nb, 0);
            }
        alltoallvw(&tt_all[0], 5, nb, 1);
        alltoallvw(&tt_all[0], 400, nb, 1);
        /* a MiB and more: far above the eager size */
        long big = size > 8 ? 40000 : 300000;
        bcast(&tt_all[0], big, 1, 0, nb);
        gather(&tt_all[1], big / 4, 0, 0, nb, 0);
        scatter(&tt_all[2], big / 8, 1, 0, nb, 0);
        allgather(&tt_all[0], big / 2, nb, 0);
        alltoall(&tt_all[3], big / 16, nb);
    }
    many_in_flight();
    errors();

    CHECK_MPI(MPI_Comm_free(&inter));
    CHECK_MPI(MPI_Comm_free(&local));
    tt_free();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
