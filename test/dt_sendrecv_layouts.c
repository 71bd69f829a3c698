/* dt_sendrecv_layouts: n doubles sent with one layout and received with another of the same signature (contiguous, vector, indexed, struct, negative-stride hvector, MPI_PACKED), below and above the eager limit and over 3 MiB (pipeline chunks split blocks), receive posted first or message unexpected, the types freed right after Isend/Irecv or kept in persistent requests, and to self. */
/* shmpi-test: np=1,2 timeout=120 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Every layout says where its i-th double lives (offset()), so each side
 * is checked against indices alone: the receiver finds value(i) at every
 * data position and its fill pattern untouched everywhere else.  With
 * two ranks, rank 0 sends and rank 1 receives every (send layout,
 * receive layout, size, mode); every rank also sends to itself.
 */
#include "check.h"

#include <stdint.h>

enum { CONTIG, VECTOR, INDEXED, STRUCT, BACKWARD, PACKED, NLAYOUTS };
static const char *const layout_name[NLAYOUTS] = {
    "contiguous", "vector", "indexed", "struct", "backward hvector",
    "MPI_PACKED"};

enum { POSTED, UNEXPECTED, FREED_EARLY, PERSISTENT, NMODES };
static const char *const mode_name[NMODES] = {
    "receive posted first", "unexpected message", "types freed at once",
    "persistent, types freed"};

/* n is a multiple of 84, so that every layout holds it in whole elements;
   168 doubles are 1.3 KiB, 2520 are 19.7 KiB (past the 16 KiB eager
   limit), 504000 are 3.8 MiB (128 pipeline chunks of 32 KiB, which do not
   fall on block boundaries: 32768 is no multiple of 168, 96 or 24) */
static const size_t sizes[] = {168, 2520, 504000};
#define NSIZES (sizeof sizes / sizeof sizes[0])

/* indexed: 12 doubles in blocks {5, 1, 4, 2} at {6, 0, 12, 2} */
static const int idx_len[4] = {5, 1, 4, 2}, idx_disp[4] = {6, 0, 12, 2};
static const int idx_at[12] = {6, 7, 8, 9, 10, 0, 12, 13, 14, 15, 2, 3};
/* struct: doubles at bytes 0, 16, 24 of a 40-byte element */
static const int st_at[3] = {0, 16, 24};

struct layout {
    MPI_Datatype type;         /* derived, or MPI_DATATYPE_NULL */
    MPI_Datatype dt;           /* what goes to the call */
    int count;
    size_t span;               /* bytes of memory the layout covers */
    size_t origin;             /* where the buffer argument points */
};

static double value(size_t i) { return (double)i * 0.5 + 7.0; }

/* Offset of the i-th double from the start of the memory. */
static size_t offset(int kind, size_t i, size_t n)
{
    switch (kind) {
    case VECTOR: /* 3 blocks of 7 doubles, stride 10: extent 27 doubles */
        return i / 21 * 216 + (i % 21 / 7 * 10 + i % 7) * 8;
    case INDEXED:
        return (i / 12 * 16 + (size_t)idx_at[i % 12]) * 8;
    case STRUCT:
        return i / 3 * 40 + (size_t)st_at[i % 3];
    case BACKWARD:
        return (n - 1 - i) * 16;
    default:
        return i * 8;
    }
}

static MPI_Datatype commit(MPI_Datatype t)
{
    CHECK_MPI(MPI_Type_commit(&t));
    return t;
}

static struct layout make(int kind, size_t n)
{
    struct layout l;
    MPI_Datatype t;
    switch (kind) {
    case CONTIG:
        l = (struct layout){MPI_DATATYPE_NULL, MPI_DOUBLE, (int)n, n * 8, 0};
        break;
    case VECTOR:
        CHECK_MPI(MPI_Type_vector(3, 7, 10, MPI_DOUBLE, &t));
        l = (struct layout){commit(t), t, (int)(n / 21), n / 21 * 216, 0};
        break;
    case INDEXED:
        CHECK_MPI(MPI_Type_indexed(4, idx_len, idx_disp, MPI_DOUBLE, &t));
        l = (struct layout){commit(t), t, (int)(n / 12), n / 12 * 128, 0};
        break;
    case STRUCT: {
        int len[2] = {1, 2};
        MPI_Aint disp[2] = {0, 16};
        MPI_Datatype types[2] = {MPI_DOUBLE, MPI_DOUBLE}, s;
        CHECK_MPI(MPI_Type_create_struct(2, len, disp, types, &s));
        CHECK_MPI(MPI_Type_create_resized(s, 0, 40, &t));
        CHECK_MPI(MPI_Type_free(&s));
        l = (struct layout){commit(t), t, (int)(n / 3), n / 3 * 40, 0};
        break;
    }
    case BACKWARD:
        CHECK_MPI(MPI_Type_create_hvector((int)n, 1, -16, MPI_DOUBLE, &t));
        l = (struct layout){commit(t), t, 1, (n - 1) * 16 + 8,
                            (n - 1) * 16};
        break;
    default: /* PACKED */
        l = (struct layout){MPI_DATATYPE_NULL, MPI_PACKED, (int)(n * 8),
                            n * 8, 0};
        break;
    }
    return l;
}

/* Free a derived type (the requests that use it keep it alive). */
static void drop(struct layout *l)
{
    if (l->type != MPI_DATATYPE_NULL) {
        CHECK_MPI(MPI_Type_free(&l->type));
        l->dt = MPI_DATATYPE_NULL;
    }
}

static unsigned char *sender_memory(int kind, size_t n, size_t span)
{
    unsigned char *m = malloc(span);
    CHECK(m != NULL, "malloc %zu", span);
    memset(m, 0x3c, span);
    for (size_t i = 0; i < n; i++) {
        double v = value(i);
        memcpy(m + offset(kind, i, n), &v, 8);
    }
    return m;
}

/* The receiver's memory holds every value where it belongs and its fill
   pattern everywhere else. */
static void check_received(unsigned char *m, int kind, size_t n,
                           size_t span, const char *what)
{
    for (size_t i = 0; i < n; i++) {
        double v;
        memcpy(&v, m + offset(kind, i, n), 8);
        CHECK(v == value(i), "%s: double %zu is %g, expected %g", what, i, v,
              value(i));
        memset(m + offset(kind, i, n), 0xa5, 8);
    }
    for (size_t b = 0; b < span; b++)
        CHECK(m[b] == 0xa5, "%s: byte %zu outside the data was written",
              what, b);
}

static void check_status(const MPI_Status *st, const struct layout *r,
                         size_t n, const char *what)
{
    int count;
    CHECK_MPI(MPI_Get_count(st, MPI_BYTE, &count));
    CHECK(count == (int)(n * 8), "%s: %d bytes received", what, count);
    if (r->dt == MPI_DATATYPE_NULL) /* freed */
        return;
    CHECK_MPI(MPI_Get_count(st, r->dt, &count));
    CHECK(count == r->count, "%s: MPI_Get_count %d, expected %d", what,
          count, r->count);
}

/* The send and the receive of one case, as `role` (1 send, 2 receive, 3
   both: to self). */
/* One case: role bit 1 sends, bit 2 receives (3: to self). */
struct exchange {
    int role, mode, peer;
    struct layout ls, lr;      /* of the send and the receive */
    void *sbuf, *rbuf;
    MPI_Request sreq, rreq;
};

/* Starts one round's send and receive in the order the mode asks for,
   the peer's half on the other side of a barrier. */
static void start_round(struct exchange *x)
{
    MPI_Comm comm = MPI_COMM_WORLD;
    int sends = x->role & 1, recvs = x->role & 2, self = x->role == 3;
    if (x->mode == PERSISTENT) {
        if (recvs)
            CHECK_MPI(MPI_Start(&x->rreq));
        if (!self)
            CHECK_MPI(MPI_Barrier(comm));
        if (sends)
            CHECK_MPI(MPI_Start(&x->sreq));
    } else if (x->mode == UNEXPECTED) {
        if (sends)
            CHECK_MPI(MPI_Isend(x->sbuf, x->ls.count, x->ls.dt, x->peer, 5,
                                comm, &x->sreq));
        if (!self)
            CHECK_MPI(MPI_Barrier(comm));
        if (recvs)
            CHECK_MPI(MPI_Irecv(x->rbuf, x->lr.count, x->lr.dt, x->peer, 5,
                                comm, &x->rreq));
    } else {
        if (recvs)
            CHECK_MPI(MPI_Irecv(x->rbuf, x->lr.count, x->lr.dt, x->peer, 5,
                                comm, &x->rreq));
        if (!self)
            CHECK_MPI(MPI_Barrier(comm));
        if (sends)
            CHECK_MPI(MPI_Isend(x->sbuf, x->ls.count, x->ls.dt, x->peer, 5,
                                comm, &x->sreq));
        if (x->mode == FREED_EARLY) {
            drop(&x->ls);
            drop(&x->lr);
        }
    }
}

/* Persistent requests are made once, and the types freed right away:
   the requests must keep them alive. */
static void init_persistent(struct exchange *x)
{
    if (x->role & 1)
        CHECK_MPI(MPI_Send_init(x->sbuf, x->ls.count, x->ls.dt, x->peer, 5,
                                MPI_COMM_WORLD, &x->sreq));
    if (x->role & 2)
        CHECK_MPI(MPI_Recv_init(x->rbuf, x->lr.count, x->lr.dt, x->peer, 5,
                                MPI_COMM_WORLD, &x->rreq));
    drop(&x->ls);
    drop(&x->lr);
}

static void run_case(int role, int s, int r, size_t n, int mode, int peer)
{
    char what[160];
    snprintf(what, sizeof what, "%s -> %s, %zu doubles, %s%s",
             layout_name[s], layout_name[r], n, mode_name[mode],
             role == 3 ? ", to self" : "");
    struct exchange x = {.role = role, .mode = mode, .peer = peer,
                         .ls = make(s, n), .lr = make(r, n),
                         .sreq = MPI_REQUEST_NULL,
                         .rreq = MPI_REQUEST_NULL};
    unsigned char *smem = role & 1 ? sender_memory(s, n, x.ls.span) : NULL;
    unsigned char *rmem = NULL;
    if (role & 2) {
        rmem = malloc(x.lr.span);
        CHECK(rmem != NULL, "malloc %zu", x.lr.span);
        memset(rmem, 0xa5, x.lr.span);
    }
    x.sbuf = smem ? smem + x.ls.origin : NULL;
    x.rbuf = rmem ? rmem + x.lr.origin : NULL;
    if (mode == PERSISTENT)
        init_persistent(&x);
    for (int round = 0; round < (mode == PERSISTENT ? 2 : 1); round++) {
        MPI_Status st;
        start_round(&x);
        CHECK_MPI(MPI_Wait(&x.sreq, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Wait(&x.rreq, &st));
        if (role & 2) {
            check_status(&st, &x.lr, n, what);
            check_received(rmem, r, n, x.lr.span, what);
        }
    }
    if (mode == PERSISTENT) {
        if (role & 1)
            CHECK_MPI(MPI_Request_free(&x.sreq));
        if (role & 2)
            CHECK_MPI(MPI_Request_free(&x.rreq));
    }
    drop(&x.ls);
    drop(&x.lr);
    free(smem);
    free(rmem);
}

int main(int argc, char **argv)
{
    int rank, size;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    int c = 0;
    for (size_t z = 0; z < NSIZES; z++)
        for (int s = 0; s < NLAYOUTS; s++)
            for (int r = 0; r < NLAYOUTS; r++, c++) {
                /* every pair in every mode for the small sizes; the big
                   one takes turns, to keep the run short */
                for (int mode = 0; mode < NMODES; mode++) {
                    if (z == NSIZES - 1 && mode != c % NMODES)
                        continue;
                    if (size >= 2 && rank < 2)
                        run_case(rank == 0 ? 1 : 2, s, r, sizes[z], mode,
                                 1 - rank);
                    run_case(3, s, r, sizes[z], mode, rank);
                }
            }
    CHECK_MPI(MPI_Finalize());
    return 0;
}
