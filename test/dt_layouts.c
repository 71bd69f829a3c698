/* dt_layouts: pairs of different layouts with one signature (contiguous, vector, resized columns, indexed, struct, subarray C/Fortran, MPI_PACKED via MPI_Pack) exchanged by Send, Isend with the types freed before the Wait, Sendrecv, Ssend, Bsend, persistent requests and self sends, eager to several MiB, receive posted before and after the message arrives; np=3 adds MPI_ANY_SOURCE and a ring. */
/* shmpi-test: np=2,3 timeout=120 */
/* shmpi-test-skip tsan: the program starts no threads, between which the races ThreadSanitizer looks for would be, and its several-MiB layouts took 73 s of the TSan step (2026-11-30); the same layout code runs under TSan in dt_sendrecv_layouts. */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A layout places a message's atoms (its basic elements, in order) in a
 * buffer; two families: doubles, and {int, double} records whose 12-byte
 * packed form puts element boundaries off the pipeline's chunk
 * boundaries.  The sender's buffer holds, at each atom, bytes derived
 * from the atom's index, the exchange and the sender, and junk between
 * atoms; the receiver's buffer starts as canary.  After the receive every
 * atom must hold the sender's bytes and every other byte its canary.
 *
 * Sizes: a few hundred bytes, just under, at and just over 16 KiB, and
 * about 4.5 MiB (blocks of 3 doubles or 12-byte records do not divide
 * 32 KiB chunks).  "before": the receiver posts MPI_Irecv, then tells the
 * sender to go; "after": the sender goes first and the receiver posts its
 * receive only once MPI_Iprobe sees the message.
 *
 * At np=2 ranks 0 and 1 run every pair of layouts of a family through
 * every mode (large sizes: a rotating subset of pairs).  At np=3 ranks 1
 * and 2 send to rank 0, which receives with MPI_ANY_SOURCE and tells the
 * messages apart by status, and then all ranks pass messages round a
 * ring with MPI_Sendrecv and MPI_Isend/MPI_Irecv.
 */
#include "check.h"

#include <stdint.h>

static int rank, nranks;
static MPI_Comm comm;
static int tag_seq;

/* ------------------------------------------------------------ layouts */

struct layout {
    char name[96];
    MPI_Datatype type;          /* committed; MPI_PACKED: see via */
    int count;
    long lo, hi;                /* the buffer, relative to its base */
    long natoms;
    long *off;                  /* atom k's offset from the base */
    int *len;                   /* and its size */
    struct layout *via;         /* MPI_PACKED: packed from/unpacked to */
};

enum family { DOUBLES, RECORDS };

static struct layout *new_layout(const char *name, long natoms)
{
    struct layout *l = calloc(1, sizeof *l);
    CHECK(l, "out of memory");
    snprintf(l->name, sizeof l->name, "%s", name);
    l->natoms = natoms;
    l->off = malloc((size_t)natoms * sizeof *l->off + 1);
    l->len = malloc((size_t)natoms * sizeof *l->len + 1);
    CHECK(l->off && l->len, "out of memory");
    return l;
}

/* Sets the buffer span from the atoms, with a margin either side. */
static void span(struct layout *l)
{
    l->lo = 0;
    l->hi = 1;
    for (long k = 0; k < l->natoms; k++) {
        if (l->off[k] < l->lo)
            l->lo = l->off[k];
        if (l->off[k] + l->len[k] > l->hi)
            l->hi = l->off[k] + l->len[k];
    }
    l->lo -= 32;
    l->hi += 32;
}

static void commit(struct layout *l, MPI_Datatype t, int count)
{
    CHECK_MPI(MPI_Type_commit(&t));
    l->type = t;
    l->count = count;
    span(l);
}

/* n doubles, one after the other */
static struct layout *d_contig(long n)
{
    struct layout *l = new_layout("contiguous doubles", n);
    for (long k = 0; k < n; k++)
        l->off[k] = 8 * k, l->len[k] = 8;
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_dup(MPI_DOUBLE, &t));
    commit(l, t, (int)n);
    return l;
}

/* blocks of 3 doubles every 5 (of 1 every 2 when 3 does not divide n) */
static struct layout *d_vector(long n)
{
    int b = n % 3 ? 1 : 3, s = n % 3 ? 2 : 5;
    struct layout *l = new_layout("vector", n);
    for (long k = 0; k < n; k++)
        l->off[k] = 8 * (k / b * s + k % b), l->len[k] = 8;
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_vector((int)(n / b), b, s, MPI_DOUBLE, &t));
    commit(l, t, 1);
    return l;
}

/* a 7 x c column-major matrix sent row by row: count n/7 elements of a
   column resized to one double; the last column is never touched */
static struct layout *d_columns(long n)
{
    int r = n % 7 ? 1 : 7;
    long c = n / r + 1;
    struct layout *l = new_layout("resized columns", n);
    for (long k = 0; k < n; k++)
        l->off[k] = 8 * (k / r + (k % r) * c), l->len[k] = 8;
    MPI_Datatype col, t;
    CHECK_MPI(MPI_Type_vector(r, 1, (int)c, MPI_DOUBLE, &col));
    CHECK_MPI(MPI_Type_create_resized(col, 0, 8, &t));
    CHECK_MPI(MPI_Type_free(&col));
    commit(l, t, (int)(n / r));
    return l;
}

/* blocks of 1..9 doubles with gaps of 0..3, laid from the end of the
   buffer towards its start (descending displacements) */
static struct layout *d_indexed(long n)
{
    long nb = 0;
    for (long k = 0; k < n; nb++)
        k += 1 + nb % 9;
    int *bl = malloc((size_t)nb * sizeof *bl), *disp = malloc((size_t)nb * sizeof *disp);
    CHECK(bl && disp, "out of memory");
    struct layout *l = new_layout("descending indexed", n);
    long k = 0, at = 0;
    for (long b = 0; b < nb; b++) {
        bl[b] = (int)(1 + b % 9 < n - k ? 1 + b % 9 : n - k);
        at -= bl[b] + b % 4;
        disp[b] = (int)at;
        for (int j = 0; j < bl[b]; j++, k++)
            l->off[k] = 8 * (at + j), l->len[k] = 8;
    }
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_indexed((int)nb, bl, disp, MPI_DOUBLE, &t));
    free(bl);
    free(disp);
    commit(l, t, 1);
    return l;
}

/* a struct of an hvector of pairs (stride 40 bytes) and, below the base,
   an indexed_block of single doubles in descending order */
static struct layout *d_struct(long n)
{
    long n1 = n / 4 * 2, n2 = n - n1;
    struct layout *l = new_layout("struct of hvector and indexed_block", n);
    MPI_Datatype hv, ib, t;
    CHECK_MPI(MPI_Type_create_hvector((int)(n1 / 2), 2, 40, MPI_DOUBLE, &hv));
    int *disp = malloc((size_t)n2 * sizeof *disp + 1);
    CHECK(disp, "out of memory");
    for (long k = 0; k < n1; k++)
        l->off[k] = 40 * (k / 2) + 8 * (k % 2), l->len[k] = 8;
    for (long j = 0; j < n2; j++) {
        disp[j] = (int)(-2 * j);
        l->off[n1 + j] = -64 + 8 * disp[j], l->len[n1 + j] = 8;
    }
    CHECK_MPI(MPI_Type_create_indexed_block((int)n2, 1, disp, MPI_DOUBLE, &ib));
    free(disp);
    int bl[2] = {1, 1};
    MPI_Aint d[2] = {0, -64};
    MPI_Datatype ty[2] = {hv, ib};
    CHECK_MPI(MPI_Type_create_struct(2, bl, d, ty, &t));
    CHECK_MPI(MPI_Type_free(&hv));
    CHECK_MPI(MPI_Type_free(&ib));
    commit(l, t, 1);
    return l;
}

/* the (n/w) x w block at (1, 2) of an (n/w + 2) x (w + 3) array, in C
   or Fortran order (w the largest of 8, 7, 3, 2, 1 dividing n) */
static struct layout *d_subarray(long n, int order)
{
    static const int ws[] = {8, 7, 3, 2, 1};
    int w = 1;
    for (int i = 0; i < 5; i++)
        if (n % ws[i] == 0) {
            w = ws[i];
            break;
        }
    int rows = (int)(n / w);
    int sizes[2] = {rows + 2, w + 3}, sub[2] = {rows, w}, starts[2] = {1, 2};
    struct layout *l = new_layout(order == MPI_ORDER_C ? "subarray C order"
                                                       : "subarray Fortran order",
                                  n);
    for (long k = 0; k < n; k++) {
        /* C: the last index is the fastest; Fortran: the first */
        long i = order == MPI_ORDER_C ? k / w : k % rows;
        long j = order == MPI_ORDER_C ? k % w : k / rows;
        long lin = order == MPI_ORDER_C ? (i + 1) * sizes[1] + (j + 2)
                                        : (i + 1) + (j + 2) * sizes[0];
        l->off[k] = 8 * lin, l->len[k] = 8;
    }
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_create_subarray(2, sizes, sub, starts, order,
                                       MPI_DOUBLE, &t));
    commit(l, t, 1);
    return l;
}

/* {int, double} as C lays it out: 16 bytes, 4 of them padding */
static struct layout *r_struct(long n)
{
    struct layout *l = new_layout("records, C struct", 2 * n);
    for (long k = 0; k < n; k++) {
        l->off[2 * k] = 16 * k, l->len[2 * k] = 4;
        l->off[2 * k + 1] = 16 * k + 8, l->len[2 * k + 1] = 8;
    }
    int bl[2] = {1, 1};
    MPI_Aint d[2] = {0, 8};
    MPI_Datatype ty[2] = {MPI_INT, MPI_DOUBLE}, t;
    CHECK_MPI(MPI_Type_create_struct(2, bl, d, ty, &t));
    commit(l, t, (int)n);
    return l;
}

/* {int, double} packed in 12 bytes, the doubles misaligned */
static struct layout *r_packed12(long n)
{
    struct layout *l = new_layout("records, 12 bytes each", 2 * n);
    for (long k = 0; k < n; k++) {
        l->off[2 * k] = 12 * k, l->len[2 * k] = 4;
        l->off[2 * k + 1] = 12 * k + 4, l->len[2 * k + 1] = 8;
    }
    int bl[2] = {1, 1};
    MPI_Aint d[2] = {0, 4};
    MPI_Datatype ty[2] = {MPI_INT, MPI_DOUBLE}, s, t;
    CHECK_MPI(MPI_Type_create_struct(2, bl, d, ty, &s));
    CHECK_MPI(MPI_Type_create_resized(s, 0, 12, &t));
    CHECK_MPI(MPI_Type_free(&s));
    commit(l, t, (int)n);
    return l;
}

/* blocks of 3 C-struct records every 4 (1 every 2 if 3 does not divide) */
static struct layout *r_vector(long n)
{
    int b = n % 3 ? 1 : 3, s = n % 3 ? 2 : 4;
    struct layout *l = new_layout("vector of records", 2 * n);
    for (long k = 0; k < n; k++) {
        long rec = k / b * s + k % b;
        l->off[2 * k] = 16 * rec, l->len[2 * k] = 4;
        l->off[2 * k + 1] = 16 * rec + 8, l->len[2 * k + 1] = 8;
    }
    int bl[2] = {1, 1};
    MPI_Aint d[2] = {0, 8};
    MPI_Datatype ty[2] = {MPI_INT, MPI_DOUBLE}, rec, t;
    CHECK_MPI(MPI_Type_create_struct(2, bl, d, ty, &rec));
    CHECK_MPI(MPI_Type_vector((int)(n / b), b, s, rec, &t));
    CHECK_MPI(MPI_Type_free(&rec));
    commit(l, t, 1);
    return l;
}

/* MPI_PACKED: the sender packs from `via`'s layout, the receiver unpacks
   into it; its atoms are via's */
static struct layout *packed(struct layout *via)
{
    struct layout *l = new_layout("", 0);
    snprintf(l->name, sizeof l->name, "MPI_PACKED via %.64s", via->name);
    l->via = via;
    l->type = MPI_PACKED;
    int size;
    CHECK_MPI(MPI_Pack_size(via->count, via->type, comm, &size));
    l->count = size;
    return l;
}

#define MAXL 9

static int make_layouts(enum family f, long n, struct layout **ls)
{
    int k = 0;
    if (f == DOUBLES) {
        ls[k++] = d_contig(n);
        ls[k++] = d_vector(n);
        ls[k++] = d_columns(n);
        ls[k++] = d_indexed(n);
        ls[k++] = d_struct(n);
        ls[k++] = d_subarray(n, MPI_ORDER_C);
        ls[k++] = d_subarray(n, MPI_ORDER_FORTRAN);
        ls[k] = packed(ls[k - 4]);
        k++;
    } else {
        ls[k++] = r_struct(n);
        ls[k++] = r_packed12(n);
        ls[k++] = r_vector(n);
        ls[k] = packed(ls[k - 1]);
        k++;
    }
    return k;
}

static void free_layout(struct layout *l)
{
    if (!l->via)
        CHECK_MPI(MPI_Type_free(&l->type));
    free(l->off);
    free(l->len);
    free(l);
}

/* ------------------------------------------------------------ buffers */

/* A layout's buffer: mem[0..len), base = mem - lo; for MPI_PACKED the
   packed bytes go to pk[0..count) and the data lives in via's buffer. */
struct buf {
    const struct layout *l, *data;   /* data: where the atoms are */
    unsigned char *mem, *base, *pk;
    long len;
};

/* The bytes of atom `atom` (at most 8) for this salt. */
static uint64_t atom_bytes(long atom, unsigned salt)
{
    uint64_t z = (uint64_t)atom * 0x9e3779b97f4a7c15ull ^
                 (uint64_t)salt * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 31)) * 0x94d049bb133111ebull;
    return z ^ (z >> 29);
}

/* writes each atom's bytes at its place in a buffer based at base */
static void put_atoms(unsigned char *base, const struct layout *d,
                      unsigned salt)
{
    for (long a = 0; a < d->natoms; a++) {
        uint64_t v = atom_bytes(a, salt);
        memcpy(base + d->off[a], &v, (size_t)d->len[a]);
    }
}

static void buf_init(struct buf *b, const struct layout *l)
{
    b->l = l;
    b->data = l->via ? l->via : l;
    b->len = b->data->hi - b->data->lo;
    b->mem = malloc((size_t)b->len);
    b->pk = l->via ? malloc((size_t)l->count + 1) : NULL;
    CHECK(b->mem && (!l->via || b->pk), "out of memory");
    b->base = b->mem - b->data->lo;
}

static void buf_free(struct buf *b)
{
    free(b->mem);
    free(b->pk);
}

/* junk everywhere, then each atom's bytes for this salt */
static void fill_send(struct buf *b, unsigned salt)
{
    for (long k = 0; k < b->len; k++)
        b->mem[k] = (unsigned char)(k * 7 + 0x3d);
    put_atoms(b->base, b->data, salt);
}

static void fill_canary(struct buf *b)
{
    memset(b->mem, 0xc5, (size_t)b->len);
}

/* every atom holds the sender's bytes, every other byte its canary */
static void check_recv(const struct buf *b, unsigned salt, const char *what)
{
    const struct layout *d = b->data;
    unsigned char *want = malloc((size_t)b->len);
    CHECK(want, "out of memory");
    memset(want, 0xc5, (size_t)b->len);
    put_atoms(want - d->lo, d, salt);
    if (memcmp(want, b->mem, (size_t)b->len) != 0) {
        long k = 0;
        while (want[k] == b->mem[k])
            k++;
        long at = k + d->lo, atom = -1;
        for (long a = 0; a < d->natoms && atom < 0; a++)
            if (at >= d->off[a] && at < d->off[a] + d->len[a])
                atom = a;
        CHECK(0, "%s: receive buffer byte %ld (%s %ld) is 0x%02x, "
              "expected 0x%02x", what, at, atom >= 0 ? "in atom" : "a gap",
              atom >= 0 ? atom : 0, b->mem[k], want[k]);
    }
    free(want);
}

/* ------------------------------------------------------------ exchange */

static void pack_for_send(struct buf *b)
{
    if (!b->l->via)
        return;
    int pos = 0;
    CHECK_MPI(MPI_Pack(b->base, b->data->count, b->data->type, b->pk,
                       b->l->count, &pos, comm));
    CHECK(pos == b->l->count, "MPI_Pack packed %d of %d bytes", pos,
          b->l->count);
}

static void unpack_received(struct buf *b, const MPI_Status *st)
{
    int n;
    CHECK_MPI(MPI_Get_count(st, b->l->via ? MPI_PACKED : b->l->type, &n));
    CHECK(n == b->l->count, "%s: received %d, expected count %d", b->l->name,
          n, b->l->count);
    if (!b->l->via)
        return;
    int pos = 0;
    CHECK_MPI(MPI_Unpack(b->pk, b->l->count, &pos, b->base, b->data->count,
                         b->data->type, comm));
    CHECK(pos == b->l->count, "MPI_Unpack took %d of %d bytes", pos,
          b->l->count);
}

/* what a communication call is given for this buffer */
static void *addr(struct buf *b)
{
    return b->l->via ? (void *)b->pk : (void *)b->base;
}

enum mode { SEND, ISEND_FREE, SSEND, BSEND, PERSISTENT, SELF, NMODES };
static const char *mode_names[] = {"MPI_Send", "MPI_Isend/Irecv, types freed",
                                   "MPI_Ssend", "MPI_Bsend",
                                   "persistent", "self"};

/* A private copy of a type for calls that free it at once; MPI_PACKED
   stays itself. */
static MPI_Datatype own(const struct layout *l)
{
    MPI_Datatype t = l->type;
    if (!l->via)
        CHECK_MPI(MPI_Type_dup(l->type, &t));
    return t;
}

static void disown(const struct layout *l, MPI_Datatype *t)
{
    if (!l->via)
        CHECK_MPI(MPI_Type_free(t));
}

/* The sender's part of one message of the given mode. */
static void send_side(enum mode m, struct buf *b, int dest, int tag)
{
    const struct layout *l = b->l;
    MPI_Request r;
    switch (m) {
    case SEND:
        CHECK_MPI(MPI_Send(addr(b), l->count, l->type, dest, tag, comm));
        break;
    case ISEND_FREE: {
        MPI_Datatype t = own(l);
        CHECK_MPI(MPI_Isend(addr(b), l->count, t, dest, tag, comm, &r));
        disown(l, &t);
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        break;
    }
    case SSEND:
        CHECK_MPI(MPI_Ssend(addr(b), l->count, l->type, dest, tag, comm));
        break;
    case BSEND: {
        int size;
        CHECK_MPI(MPI_Pack_size(l->count, l->type, comm, &size));
        size += MPI_BSEND_OVERHEAD;
        void *space = malloc((size_t)size), *back;
        CHECK(space, "out of memory");
        CHECK_MPI(MPI_Buffer_attach(space, size));
        CHECK_MPI(MPI_Bsend(addr(b), l->count, l->type, dest, tag, comm));
        /* the data was copied: scribbling on it changes nothing */
        memset(b->mem, 0, (size_t)b->len);
        if (l->via)
            memset(b->pk, 0, (size_t)l->count);
        CHECK_MPI(MPI_Buffer_detach(&back, &size));
        CHECK(back == space, "MPI_Buffer_detach returned another buffer");
        free(space);
        break;
    }
    case PERSISTENT: {
        MPI_Datatype t = own(l);
        CHECK_MPI(MPI_Send_init(addr(b), l->count, t, dest, tag, comm, &r));
        disown(l, &t);
        CHECK_MPI(MPI_Start(&r));
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Request_free(&r));
        break;
    }
    default:
        CHECK(0, "mode %d", m);
    }
}

/* Waits until the message from src with tag is visible to a probe. */
static void await_message(int src, int tag)
{
    int flag = 0;
    MPI_Status st;
    while (!flag)
        CHECK_MPI(MPI_Iprobe(src, tag, comm, &flag, &st));
}

/* The receiver's part: posted before the sender starts (it waits for a
   token) or after the message is visible. */
static void recv_side(enum mode m, struct buf *b, int src, int tag,
                      int before)
{
    const struct layout *l = b->l;
    MPI_Request r;
    MPI_Status st;
    MPI_Datatype t = m == ISEND_FREE || m == PERSISTENT ? own(l) : l->type;
    if (m == PERSISTENT) {
        CHECK_MPI(MPI_Recv_init(addr(b), l->count, t, src, tag, comm, &r));
        disown(l, &t);
    }
    if (!before)
        await_message(src, tag);
    if (m == PERSISTENT) {
        CHECK_MPI(MPI_Start(&r));
    } else if (m == ISEND_FREE || before) {
        CHECK_MPI(MPI_Irecv(addr(b), l->count, t, src, tag, comm, &r));
        if (m == ISEND_FREE)
            disown(l, &t);
    }
    if (before)
        CHECK_MPI(MPI_Send(NULL, 0, MPI_BYTE, src, tag, comm));
    if (m == PERSISTENT || m == ISEND_FREE || before)
        CHECK_MPI(MPI_Wait(&r, &st));
    else
        CHECK_MPI(MPI_Recv(addr(b), l->count, t, src, tag, comm, &st));
    if (m == PERSISTENT)
        CHECK_MPI(MPI_Request_free(&r));
    CHECK(st.MPI_SOURCE == src && st.MPI_TAG == tag,
          "status source %d tag %d, expected %d %d", st.MPI_SOURCE,
          st.MPI_TAG, src, tag);
    unpack_received(b, &st);
}

static void describe(char *what, size_t len, enum mode m,
                     const struct layout *s, const struct layout *r,
                     long bytes, int before)
{
    snprintf(what, len, "%s, %ld bytes, %s -> %s, receive %s", mode_names[m],
             bytes, s->name, r->name, before ? "first" : "last");
}

/* Rank 0 sends with s, rank 1 receives with r (mode SELF: each rank
   sends to itself). */
static void exchange(enum mode m, struct layout *s, struct layout *r,
                     long bytes, int before)
{
    int tag = ++tag_seq % 30000;
    unsigned salt = (unsigned)tag * 3 + 1;
    char what[256];
    describe(what, sizeof what, m, s, r, bytes, before);
    struct buf sb, rb;
    if (m == SELF || rank == 0) {
        buf_init(&sb, s);
        fill_send(&sb, salt);
        pack_for_send(&sb);
    }
    if (m == SELF || rank == 1) {
        buf_init(&rb, r);
        fill_canary(&rb);
    }
    if (m == SELF) {
        MPI_Request q;
        MPI_Status st;
        if (before) {
            CHECK_MPI(MPI_Irecv(addr(&rb), r->count, r->type, rank, tag, comm,
                                &q));
            CHECK_MPI(MPI_Send(addr(&sb), s->count, s->type, rank, tag, comm));
            CHECK_MPI(MPI_Wait(&q, &st));
        } else {
            CHECK_MPI(MPI_Isend(addr(&sb), s->count, s->type, rank, tag, comm,
                                &q));
            CHECK_MPI(MPI_Recv(addr(&rb), r->count, r->type, rank, tag, comm,
                               &st));
            CHECK_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
        }
        unpack_received(&rb, &st);
        check_recv(&rb, salt, what);
    } else if (rank == 0) {
        if (before)
            CHECK_MPI(MPI_Recv(NULL, 0, MPI_BYTE, 1, tag, comm,
                               MPI_STATUS_IGNORE));
        send_side(m, &sb, 1, tag);
    } else if (rank == 1) {
        recv_side(m, &rb, 0, tag, before);
        check_recv(&rb, salt, what);
    }
    if (m == SELF || rank == 0)
        buf_free(&sb);
    if (m == SELF || rank == 1)
        buf_free(&rb);
}

/* Both ranks send with s and receive with r at once. */
static void sendrecv(struct layout *s, struct layout *r, long bytes)
{
    int tag = ++tag_seq % 30000, peer = 1 - rank;
    unsigned salt = (unsigned)tag * 3 + 1;
    char what[256];
    snprintf(what, sizeof what, "MPI_Sendrecv, %ld bytes, %s -> %s", bytes,
             s->name, r->name);
    struct buf sb, rb;
    buf_init(&sb, s);
    buf_init(&rb, r);
    fill_send(&sb, salt + (unsigned)rank);
    pack_for_send(&sb);
    fill_canary(&rb);
    MPI_Status st;
    CHECK_MPI(MPI_Sendrecv(addr(&sb), s->count, s->type, peer, tag,
                           addr(&rb), r->count, r->type, peer, tag, comm,
                           &st));
    unpack_received(&rb, &st);
    check_recv(&rb, salt + (unsigned)peer, what);
    buf_free(&sb);
    buf_free(&rb);
}

/* ------------------------------------------------------------ np = 2 */

static const struct size {
    enum family f;
    long n;          /* doubles or records */
} sizes[] = {
    {DOUBLES, 96},     {DOUBLES, 2047},   {DOUBLES, 2048},
    {DOUBLES, 2050},   {DOUBLES, 589827}, {RECORDS, 50},
    {RECORDS, 1365},   {RECORDS, 1366},   {RECORDS, 393213},
};

static int is_large(long bytes)
{
    return bytes > 1 << 20;
}

static void pairs(void)
{
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        struct layout *ls[MAXL];
        int nl = make_layouts(sizes[z].f, sizes[z].n, ls);
        long bytes = sizes[z].n * (sizes[z].f == DOUBLES ? 8 : 12);
        for (int m = 0; m < NMODES; m++)
            for (int before = 0; before < 2; before++)
                for (int i = 0; i < nl; i++)
                    for (int j = 0; j < nl; j++) {
                        /* large messages: each sender with one receiver,
                           the pairing rotating with mode and order */
                        if (is_large(bytes) &&
                            j != (i + 1 + m * 2 + before) % nl)
                            continue;
                        exchange((enum mode)m, ls[i], ls[j], bytes, before);
                    }
        for (int i = 0; i < nl; i++)
            for (int j = 0; j < nl; j++)
                if (!is_large(bytes) || j == (i + 3) % nl)
                    sendrecv(ls[i], ls[j], bytes);
        for (int i = nl - 1; i >= 0; i--)
            free_layout(ls[i]);
    }
}

/* ------------------------------------------------------------ np >= 3 */

/* Every other rank sends to rank 0 with its own layout; rank 0 receives
   them all with MPI_ANY_SOURCE and one layout, and uses the status to
   know whose data it got. */
static void any_source(const struct size *z, int recv_layout, int before)
{
    struct layout *ls[MAXL];
    int nl = make_layouts(z->f, z->n, ls);
    int tag = ++tag_seq % 30000;
    if (rank == 0) {
        int n = nranks - 1;
        struct buf *rb = malloc((size_t)n * sizeof *rb);
        MPI_Request *q = malloc((size_t)n * sizeof *q);
        MPI_Status *st = malloc((size_t)n * sizeof *st);
        CHECK(rb && q && st, "out of memory");
        struct layout *rl = ls[recv_layout % nl];
        for (int i = 0; i < n; i++) {
            buf_init(&rb[i], rl);
            fill_canary(&rb[i]);
        }
        if (before) {
            for (int i = 0; i < n; i++)
                CHECK_MPI(MPI_Irecv(addr(&rb[i]), rl->count, rl->type,
                                    MPI_ANY_SOURCE, tag, comm, &q[i]));
            for (int src = 1; src < nranks; src++)
                CHECK_MPI(MPI_Send(NULL, 0, MPI_BYTE, src, tag, comm));
            CHECK_MPI(MPI_Waitall(n, q, st));
        } else {
            for (int src = 1; src < nranks; src++)
                await_message(src, tag);
            for (int i = 0; i < n; i++)
                CHECK_MPI(MPI_Recv(addr(&rb[i]), rl->count, rl->type,
                                   MPI_ANY_SOURCE, tag, comm, &st[i]));
        }
        int seen = 0;
        for (int i = 0; i < n; i++) {
            int src = st[i].MPI_SOURCE;
            CHECK(src >= 1 && src < nranks && !(seen & 1 << src),
                  "MPI_ANY_SOURCE receive %d: source %d", i, src);
            seen |= 1 << src;
            unpack_received(&rb[i], &st[i]);
            char what[256];
            snprintf(what, sizeof what, "MPI_ANY_SOURCE from rank %d, %s, "
                     "receive %s", src, rl->name, before ? "first" : "last");
            check_recv(&rb[i], (unsigned)(tag * 8 + src), what);
            buf_free(&rb[i]);
        }
        free(rb);
        free(q);
        free(st);
    } else {
        struct buf sb;
        buf_init(&sb, ls[(recv_layout + rank) % nl]);
        fill_send(&sb, (unsigned)(tag * 8 + rank));
        pack_for_send(&sb);
        if (before)
            CHECK_MPI(MPI_Recv(NULL, 0, MPI_BYTE, 0, tag, comm,
                               MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Send(addr(&sb), sb.l->count, sb.l->type, 0, tag, comm));
        buf_free(&sb);
    }
    for (int i = nl - 1; i >= 0; i--)
        free_layout(ls[i]);
}

/* Each rank sends to the next with one layout and receives from the
   previous with another, by MPI_Sendrecv or by MPI_Isend/MPI_Irecv. */
static void ring(const struct size *z, int shift, int nonblocking)
{
    struct layout *ls[MAXL];
    int nl = make_layouts(z->f, z->n, ls);
    int tag = ++tag_seq % 30000;
    int next = (rank + 1) % nranks, prev = (rank + nranks - 1) % nranks;
    struct buf sb, rb;
    buf_init(&sb, ls[rank % nl]);
    buf_init(&rb, ls[(prev + shift) % nl]);
    fill_send(&sb, (unsigned)(tag * 8 + rank));
    pack_for_send(&sb);
    fill_canary(&rb);
    MPI_Status st;
    if (nonblocking) {
        MPI_Request q[2];
        MPI_Status sts[2];
        CHECK_MPI(MPI_Irecv(addr(&rb), rb.l->count, rb.l->type, prev, tag,
                            comm, &q[0]));
        CHECK_MPI(MPI_Isend(addr(&sb), sb.l->count, sb.l->type, next, tag,
                            comm, &q[1]));
        CHECK_MPI(MPI_Waitall(2, q, sts));
        st = sts[0];
    } else {
        CHECK_MPI(MPI_Sendrecv(addr(&sb), sb.l->count, sb.l->type, next, tag,
                               addr(&rb), rb.l->count, rb.l->type, prev, tag,
                               comm, &st));
    }
    unpack_received(&rb, &st);
    char what[256];
    snprintf(what, sizeof what, "ring (%s), from rank %d, %s -> %s",
             nonblocking ? "MPI_Isend/MPI_Irecv" : "MPI_Sendrecv", prev,
             ls[prev % nl]->name, rb.l->name);
    check_recv(&rb, (unsigned)(tag * 8 + prev), what);
    buf_free(&sb);
    buf_free(&rb);
    for (int i = nl - 1; i >= 0; i--)
        free_layout(ls[i]);
}

static void many(void)
{
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        int reps = is_large(sizes[z].n * 8) ? 1 : 4;
        for (int k = 0; k < reps; k++)
            for (int before = 0; before < 2; before++)
                any_source(&sizes[z], k * 3 + before, before);
        for (int k = 0; k < reps; k++) {
            ring(&sizes[z], k + 1, 0);
            ring(&sizes[z], k + 2, 1);
        }
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    comm = MPI_COMM_WORLD;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &nranks);
    CHECK(nranks >= 2, "needs at least 2 ranks");
    if (nranks == 2)
        pairs();
    else
        many();
    MPI_Finalize();
    return 0;
}
