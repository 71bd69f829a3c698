/* nbc_many_in_flight: many nonblocking collectives of every kind (data movement, v forms, reductions, scans) outstanding at once on four communicators (world, a dup, two splits), mixed with point-to-point messages and with blocking collectives on the same communicators, a derived type freed in flight; completed with Waitall, Testany and Waitsome in an order that differs on every rank; every buffer checked. */
/* shmpi-test: np=1,2,3,4,7,16 timeout=120 */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

/* The collectives, then the point-to-point kinds. */
enum kind {
    IBARRIER, IBCAST, IGATHER, IGATHERV, ISCATTER, ISCATTERV, IALLGATHER,
    IALLGATHERV, IALLTOALL, IALLTOALLV, IALLTOALLW, IREDUCE, IALLREDUCE,
    IREDUCE_SCATTER, IREDUCE_SCATTER_BLOCK, ISCAN, IEXSCAN,
    ISEND, IRECV, NKINDS
};

#define NCOMMS 4
#define MAXOPS (NCOMMS * ISEND + 2)

/* The array arguments stay untouched until the request completes (the
   types may be freed at once). */
struct op {
    enum kind kind;
    MPI_Comm comm;
    int me, n, root, count, round;
    int *send, *recv;
    int counts[64], sdispls[64], rcounts[64], rdispls[64];
    MPI_Datatype stypes[64], rtypes[64];
};

static int rank, size;

/* Element k of what src sends to dst in op (kind, round); a receive
   expects what the matching send sent. */
static int val(const struct op *o, int src, int dst, int k)
{
    int kind = o->kind == IRECV ? ISEND : (int)o->kind;
    return (((o->round * NKINDS + kind) * 131 + src) * 131 + dst) * 8 + k;
}

/* Elements src sends to dst in a v-form op: zero now and then. */
static int vcount(const struct op *o, int src, int dst)
{
    return (src + 2 * dst + o->round) % 3 + o->count - 1;
}

/* Displacements for counts, the blocks packed in reverse rank order;
   returns the total. */
static int pack_backwards(int n, const int *counts, int *displs)
{
    int at = 0;
    for (int d = n - 1; d >= 0; d--) {
        displs[d] = at;
        at += counts[d];
    }
    return at;
}

static int *ints(long n)
{
    int *p = malloc((size_t)(n > 0 ? n : 1) * sizeof *p);
    CHECK(p, "out of memory");
    for (long i = 0; i < n; i++)
        p[i] = -1;
    return p;
}

/* Igatherv and Iallgatherv: rank s sends vcount(o, s, dst) elements, dst
   the root (or 0: every rank gets the same); they land packed backwards. */
static void start_gatherv(struct op *o, MPI_Request *req)
{
    int n = o->n, me = o->me, dst = o->kind == IGATHERV ? o->root : 0;
    for (int p = 0; p < n; p++)
        o->rcounts[p] = vcount(o, p, dst);
    o->send = ints(o->rcounts[me]);
    o->recv = ints(pack_backwards(n, o->rcounts, o->rdispls));
    for (int k = 0; k < o->rcounts[me]; k++)
        o->send[k] = val(o, me, dst, k);
    if (o->kind == IGATHERV)
        CHECK_MPI(MPI_Igatherv(o->send, o->rcounts[me], MPI_INT, o->recv,
                               o->rcounts, o->rdispls, MPI_INT, dst, o->comm,
                               req));
    else
        CHECK_MPI(MPI_Iallgatherv(o->send, o->rcounts[me], MPI_INT, o->recv,
                                  o->rcounts, o->rdispls, MPI_INT, o->comm,
                                  req));
}

/* Iscatterv and Ialltoallv: src (the root, or every rank) sends
   vcount(o, src, d) elements to rank d, packed backwards. */
static void start_scatterv(struct op *o, MPI_Request *req)
{
    int n = o->n, me = o->me, src = o->kind == ISCATTERV ? o->root : me;
    for (int p = 0; p < n; p++)
        o->counts[p] = vcount(o, src, p);
    o->send = ints(pack_backwards(n, o->counts, o->sdispls));
    for (int d = 0; me == src && d < n; d++)
        for (int k = 0; k < o->counts[d]; k++)
            o->send[o->sdispls[d] + k] = val(o, src, d, k);
    if (o->kind == ISCATTERV) {
        o->recv = ints(o->counts[me]);
        CHECK_MPI(MPI_Iscatterv(o->send, o->counts, o->sdispls, MPI_INT,
                                o->recv, o->counts[me], MPI_INT, src,
                                o->comm, req));
        return;
    }
    for (int p = 0; p < n; p++)
        o->rcounts[p] = vcount(o, p, me);
    o->recv = ints(pack_backwards(n, o->rcounts, o->rdispls));
    CHECK_MPI(MPI_Ialltoallv(o->send, o->counts, o->sdispls, MPI_INT,
                             o->recv, o->rcounts, o->rdispls, MPI_INT,
                             o->comm, req));
}

/* The reductions: MPI_SUM of ints, rank s contributing val(o, s, 0, k)
   as element k of the whole vector (the sums stay below INT_MAX for the
   rounds and sizes run here). */
static void start_reduction(struct op *o, MPI_Request *req)
{
    int n = o->n, me = o->me, c = o->count, len = c, mine = c;
    if (o->kind == IREDUCE_SCATTER) {
        len = 0;
        for (int p = 0; p < n; p++) {
            o->counts[p] = vcount(o, p, 0);
            len += o->counts[p];
        }
        mine = o->counts[me];
    } else if (o->kind == IREDUCE_SCATTER_BLOCK) {
        len = c * n;
    }
    o->send = ints(len);
    o->recv = ints(mine);
    for (int k = 0; k < len; k++)
        o->send[k] = val(o, me, 0, k);
    int *s = o->send, *r = o->recv;
    switch (o->kind) {
    case IREDUCE:
        CHECK_MPI(MPI_Ireduce(s, r, c, MPI_INT, MPI_SUM, o->root, o->comm,
                              req));
        break;
    case IALLREDUCE:
        CHECK_MPI(MPI_Iallreduce(s, r, c, MPI_INT, MPI_SUM, o->comm, req));
        break;
    case IREDUCE_SCATTER:
        CHECK_MPI(MPI_Ireduce_scatter(s, r, o->counts, MPI_INT, MPI_SUM,
                                      o->comm, req));
        break;
    case IREDUCE_SCATTER_BLOCK:
        CHECK_MPI(MPI_Ireduce_scatter_block(s, r, c, MPI_INT, MPI_SUM,
                                            o->comm, req));
        break;
    case ISCAN:
        CHECK_MPI(MPI_Iscan(s, r, c, MPI_INT, MPI_SUM, o->comm, req));
        break;
    default:
        CHECK_MPI(MPI_Iexscan(s, r, c, MPI_INT, MPI_SUM, o->comm, req));
        break;
    }
}

/* Start op o, whose kind, comm, round and root are set. */
static void start(struct op *o, MPI_Request *req)
{
    int n = o->n, me = o->me, c = o->count;
    switch (o->kind) {
    case IBARRIER:
        CHECK_MPI(MPI_Ibarrier(o->comm, req));
        break;
    case IBCAST:
        o->recv = ints(c);
        for (int k = 0; me == o->root && k < c; k++)
            o->recv[k] = val(o, o->root, 0, k);
        CHECK_MPI(MPI_Ibcast(o->recv, c, MPI_INT, o->root, o->comm, req));
        break;
    case IGATHER:
        o->send = ints(c);
        o->recv = ints((long)c * n);
        for (int k = 0; k < c; k++)
            o->send[k] = val(o, me, o->root, k);
        CHECK_MPI(MPI_Igather(o->send, c, MPI_INT, o->recv, c, MPI_INT,
                              o->root, o->comm, req));
        break;
    case ISCATTER:
        o->send = ints((long)c * n);
        o->recv = ints(c);
        for (int k = 0; me == o->root && k < c * n; k++)
            o->send[k] = val(o, o->root, k / c, k % c);
        CHECK_MPI(MPI_Iscatter(o->send, c, MPI_INT, o->recv, c, MPI_INT,
                               o->root, o->comm, req));
        break;
    case IALLGATHER:
        o->send = ints(c);
        o->recv = ints((long)c * n);
        for (int k = 0; k < c; k++)
            o->send[k] = val(o, me, 0, k);
        CHECK_MPI(MPI_Iallgather(o->send, c, MPI_INT, o->recv, c, MPI_INT,
                                 o->comm, req));
        break;
    case IALLTOALL:
        o->send = ints((long)c * n);
        o->recv = ints((long)c * n);
        for (int d = 0; d < n; d++)
            for (int k = 0; k < c; k++)
                o->send[d * c + k] = val(o, me, d, k);
        CHECK_MPI(MPI_Ialltoall(o->send, c, MPI_INT, o->recv, c, MPI_INT,
                                o->comm, req));
        break;
    case IALLTOALLW: { /* sent as every other int, the type freed at once */
        MPI_Datatype strided;
        CHECK_MPI(MPI_Type_vector(c, 1, 2, MPI_INT, &strided));
        CHECK_MPI(MPI_Type_commit(&strided));
        o->send = ints(2L * c * n);
        o->recv = ints((long)c * n);
        for (int d = 0; d < n; d++) {
            o->counts[d] = 1;
            o->stypes[d] = strided;
            o->sdispls[d] = (int)(2 * c * d * sizeof(int));
            o->rcounts[d] = c;
            o->rtypes[d] = MPI_INT;
            o->rdispls[d] = (int)(c * d * sizeof(int));
            for (int k = 0; k < c; k++)
                o->send[2 * c * d + 2 * k] = val(o, me, d, k);
        }
        CHECK_MPI(MPI_Ialltoallw(o->send, o->counts, o->sdispls, o->stypes,
                                 o->recv, o->rcounts, o->rdispls, o->rtypes,
                                 o->comm, req));
        CHECK_MPI(MPI_Type_free(&strided));
        break;
    }
    case IGATHERV:
    case IALLGATHERV:
        start_gatherv(o, req);
        break;
    case ISCATTERV:
    case IALLTOALLV:
        start_scatterv(o, req);
        break;
    case ISEND:
        o->send = ints(c);
        for (int k = 0; k < c; k++)
            o->send[k] = val(o, me, (me + 1) % n, k);
        CHECK_MPI(MPI_Isend(o->send, c, MPI_INT, (me + 1) % n, o->round,
                            o->comm, req));
        break;
    case IRECV:
        o->recv = ints(c);
        CHECK_MPI(MPI_Irecv(o->recv, c, MPI_INT, (me - 1 + n) % n, o->round,
                            o->comm, req));
        break;
    default:
        start_reduction(o, req);
        break;
    }
}

static void expect(const struct op *o, const int *got, int src, int dst,
                   int count, const char *what)
{
    for (int k = 0; k < count; k++)
        CHECK(got[k] == val(o, src, dst, k), "round %d, %s on a comm of %d: "
              "element %d from %d is %d, expected %d", o->round, what, o->n,
              k, src, got[k], val(o, src, dst, k));
}

/* Result element j of a reduction is element first + j summed over the
   ranks below upto, computed here one by one. */
static void verify_reduction(const struct op *o)
{
    int me = o->me, len = o->count, first = 0, upto = o->n;
    if ((o->kind == IREDUCE && me != o->root) ||
        (o->kind == IEXSCAN && me == 0)) /* no result there */
        return;
    if (o->kind == IREDUCE_SCATTER) {
        for (int p = 0; p < me; p++)
            first += o->counts[p];
        len = o->counts[me];
    } else if (o->kind == IREDUCE_SCATTER_BLOCK) {
        first = me * len;
    } else if (o->kind == ISCAN || o->kind == IEXSCAN) {
        upto = o->kind == ISCAN ? me + 1 : me;
    }
    for (int j = 0; j < len; j++) {
        long want = 0;
        for (int s = 0; s < upto; s++)
            want += val(o, s, 0, first + j);
        CHECK(o->recv[j] == want, "round %d, reduction kind %d on a comm of "
              "%d: element %d is %d, expected %ld", o->round, o->kind, o->n,
              j, o->recv[j], want);
    }
}

static void verify(const struct op *o)
{
    int n = o->n, me = o->me, c = o->count;
    switch (o->kind) {
    case IBCAST:
        expect(o, o->recv, o->root, 0, c, "ibcast");
        break;
    case IGATHER:
        for (int s = 0; me == o->root && s < n; s++)
            expect(o, o->recv + s * c, s, o->root, c, "igather");
        break;
    case IGATHERV:
        for (int s = 0; me == o->root && s < n; s++)
            expect(o, o->recv + o->rdispls[s], s, o->root, o->rcounts[s],
                   "igatherv");
        break;
    case ISCATTER:
        expect(o, o->recv, o->root, me, c, "iscatter");
        break;
    case ISCATTERV:
        expect(o, o->recv, o->root, me, o->counts[me], "iscatterv");
        break;
    case IALLGATHERV:
    case IALLTOALLV:
        for (int s = 0; s < n; s++)
            expect(o, o->recv + o->rdispls[s], s,
                   o->kind == IALLGATHERV ? 0 : me, o->rcounts[s],
                   "iallgatherv/ialltoallv");
        break;
    case IALLGATHER:
        for (int s = 0; s < n; s++)
            expect(o, o->recv + s * c, s, 0, c, "iallgather");
        break;
    case IALLTOALL:
    case IALLTOALLW:
        for (int s = 0; s < n; s++)
            expect(o, o->recv + s * c, s, me, c, "ialltoall(w)");
        break;
    case IRECV:
        expect(o, o->recv, (me - 1 + n) % n, me, c, "irecv");
        break;
    case IBARRIER:
    case ISEND:
        break;
    default:
        verify_reduction(o);
        break;
    }
}

/* Elements per block: a few, and every fourth round far above the
   eager size of point-to-point messages. */
static int count_of(int round, int kind)
{
    return round % 4 == 3 ? 20000 + kind : 1 + (round + kind) % 5;
}

/* A permutation of 0..n-1 that depends on the rank and the round. */
static void scramble(int *order, int n, unsigned seed)
{
    for (int i = 0; i < n; i++)
        order[i] = i;
    for (int i = n - 1; i > 0; i--) {
        seed = seed * 1103515245u + 12345u;
        int j = (int)((seed >> 8) % (unsigned)(i + 1)), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
}

/* Complete every request of reqs, by Waitall, Testany or Waitsome. */
static void complete_all(MPI_Request *reqs, int n, int how)
{
    int done = 0, idx, flag, outcount, indices[MAXOPS];
    switch (how) {
    case 0:
        CHECK_MPI(MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE));
        return;
    case 1:
        for (;;) {
            CHECK_MPI(MPI_Testany(n, reqs, &idx, &flag, MPI_STATUS_IGNORE));
            if (flag && idx == MPI_UNDEFINED)
                break;
            if (flag) {
                CHECK(reqs[idx] == MPI_REQUEST_NULL, "Testany left it");
                done++;
            }
        }
        break;
    default:
        for (;;) {
            CHECK_MPI(MPI_Waitsome(n, reqs, &outcount, indices,
                                   MPI_STATUSES_IGNORE));
            if (outcount == MPI_UNDEFINED)
                break;
            done += outcount;
        }
        break;
    }
    CHECK(done == n, "completed %d of %d requests", done, n);
}

static void one_round(MPI_Comm comms[NCOMMS], int round)
{
    struct op ops[MAXOPS];
    MPI_Request by_op[MAXOPS], reqs[MAXOPS];
    int nops = 0, order[MAXOPS];
    for (int ci = 0; ci < NCOMMS; ci++) {
        MPI_Comm comm = comms[ci];
        int me, n;
        CHECK_MPI(MPI_Comm_rank(comm, &me));
        CHECK_MPI(MPI_Comm_size(comm, &n));
        for (int k = 0; k < (int)ISEND; k++) {
            struct op *o = &ops[nops];
            *o = (struct op){.kind = (enum kind)k, .comm = comm, .me = me,
                             .n = n, .root = (round + k + ci) % n,
                             .count = count_of(round, k), .round = round};
            start(o, &by_op[nops++]);
        }
        /* blocking collectives on communicators with requests pending */
        if (ci == 1) {
            int sum = 0;
            CHECK_MPI(MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, comm));
            CHECK(sum == n * (n - 1) / 2, "allreduce: %d", sum);
        } else if (ci == 2) {
            int v = rank == size - 1 ? round * 7 : -1;
            CHECK_MPI(MPI_Bcast(&v, 1, MPI_INT, size - 1, comms[0]));
            CHECK(v == round * 7, "bcast: %d", v);
        } else if (ci == 3) {
            CHECK_MPI(MPI_Barrier(comms[1]));
        }
    }
    for (int k = ISEND; k <= IRECV; k++) {
        struct op *o = &ops[nops];
        *o = (struct op){.kind = (enum kind)k, .comm = MPI_COMM_WORLD,
                         .me = rank, .n = size, .count = 3, .round = round};
        start(o, &by_op[nops++]);
    }
    scramble(order, nops, (unsigned)(rank * 7919 + round * 104729 + 1));
    for (int i = 0; i < nops; i++)
        reqs[i] = by_op[order[i]];
    complete_all(reqs, nops, round % 3);
    for (int i = 0; i < nops; i++) {
        verify(&ops[i]);
        free(ops[i].send);
        free(ops[i].recv);
    }
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size <= 64, "at most 64 ranks");
    MPI_Comm comms[NCOMMS] = {MPI_COMM_WORLD};
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comms[1]));
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &comms[2]));
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, -rank, &comms[3]));

    int rounds = size > 8 ? 6 : 30;
    for (int round = 0; round < rounds; round++)
        one_round(comms, round);

    for (int ci = 1; ci < NCOMMS; ci++)
        CHECK_MPI(MPI_Comm_free(&comms[ci]));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
