/* nbc_many_in_flight: many nonblocking collectives of every data-movement kind outstanding at once on four communicators (world, a dup, two splits), mixed with point-to-point messages and with blocking collectives on the same communicators, a derived type freed in flight; completed with Waitall, Testany and Waitsome in an order that differs on every rank; every buffer checked. */
/* shmpi-test: np=1,2,3,4,7,16 timeout=120 */
#include "check.h"

enum kind {
    IBARRIER, IBCAST, IGATHER, ISCATTERV, IALLGATHER, IALLTOALL, IALLTOALLW,
    ISEND, IRECV, NKINDS
};

#define NCOMMS 4
#define MAXOPS (NCOMMS * IALLTOALLW + NCOMMS + 2)

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

static int *ints(long n)
{
    int *p = malloc((size_t)(n > 0 ? n : 1) * sizeof *p);
    CHECK(p, "out of memory");
    for (long i = 0; i < n; i++)
        p[i] = -1;
    return p;
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
    case ISCATTERV: { /* rank d gets d % 3 + c elements, packed backwards */
        int at = 0;
        for (int d = n - 1; d >= 0; d--) {
            o->counts[d] = d % 3 + c;
            o->sdispls[d] = at;
            at += o->counts[d];
        }
        o->send = ints(at);
        o->recv = ints(o->counts[me]);
        for (int d = 0; me == o->root && d < n; d++)
            for (int k = 0; k < o->counts[d]; k++)
                o->send[o->sdispls[d] + k] = val(o, o->root, d, k);
        CHECK_MPI(MPI_Iscatterv(o->send, o->counts, o->sdispls, MPI_INT,
                                o->recv, o->counts[me], MPI_INT, o->root,
                                o->comm, req));
        break;
    }
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
    case ISCATTERV:
        expect(o, o->recv, o->root, me, me % 3 + c, "iscatterv");
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
    default:
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
        for (int k = 0; k <= (int)IALLTOALLW; k++) {
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
