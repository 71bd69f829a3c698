/* dt_pack: MPI_Pack/MPI_Unpack/MPI_Pack_size - several packing units in one buffer, unpacking in pieces from any position into other layouts of the same signature, packed and typed messages received either way (np=2), and the error classes. */
/* shmpi-test: np=1,2 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Every check compares the data against values computed from indices,
 * never against another pack.  Errors run under MPI_ERRORS_RETURN and
 * must leave position and the buffers untouched.
 */
#include "dt_check.h"

static double dval(int i) { return i * 1.25 - 3.0; }

/* Blocks of 3 doubles every 5: the doubles v[5k..5k+2]. */
static MPI_Datatype strided(int blocks)
{
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_vector(blocks, 3, 5, MPI_DOUBLE, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    return t;
}

static void check_pack_size(MPI_Datatype t, int count, int bytes)
{
    int size;
    CHECK_MPI(MPI_Pack_size(count, t, MPI_COMM_WORLD, &size));
    CHECK(size >= bytes, "MPI_Pack_size(%d) = %d < %d data bytes", count,
          size, bytes);
}

/* Four packing units into one buffer, unpacked in other pieces and
   other layouts. */
static void units_in_one_buffer(void)
{
    MPI_Comm comm = MPI_COMM_WORLD;
    MPI_Datatype vec = strided(4), rt = rec_type();
    int n = 12, pos = 0;
    double v[20];
    struct rec recs[4];
    for (int i = 0; i < 20; i++)
        v[i] = dval(i);
    for (int i = 0; i < 4; i++)
        recs[i] = (struct rec){i * 7, dval(100 + i), {'a' + i, 'b', 'c'}};
    check_pack_size(MPI_INT, 1, 4);
    check_pack_size(vec, 1, 12 * 8);
    check_pack_size(rt, 4, 4 * 15);
    check_pack_size(MPI_CHAR, 5, 5);
    check_pack_size(MPI_DOUBLE_INT, 3, 3 * 12);
    int need = 0, part;
    CHECK_MPI(MPI_Pack_size(1, MPI_INT, comm, &part));
    need += part;
    CHECK_MPI(MPI_Pack_size(1, vec, comm, &part));
    need += part;
    CHECK_MPI(MPI_Pack_size(4, rt, comm, &part));
    need += part;
    CHECK_MPI(MPI_Pack_size(5, MPI_CHAR, comm, &part));
    need += part;
    char *buf = malloc((size_t)need + 64);
    CHECK(buf != NULL, "malloc");
    CHECK_MPI(MPI_Pack(&n, 1, MPI_INT, buf, need, &pos, comm));
    CHECK_MPI(MPI_Pack(v, 1, vec, buf, need, &pos, comm));
    CHECK_MPI(MPI_Pack(recs, 0, rt, buf, need, &pos, comm)); /* nothing */
    CHECK_MPI(MPI_Pack(recs, 4, rt, buf, need, &pos, comm));
    CHECK_MPI(MPI_Pack("hello", 5, MPI_CHAR, buf, need, &pos, comm));
    CHECK(pos <= need, "packed %d bytes, MPI_Pack_size said %d", pos, need);
    int packed = pos;

    /* unpack: the count, then the 12 doubles contiguously in two pieces
       (5 + 7), the records one at a time, the chars into a vector */
    int m = 0;
    double w[12];
    struct rec got[4];
    char s[10] = "xxxxxxxxxx";
    memset(got, 0, sizeof got);
    pos = 0;
    CHECK_MPI(MPI_Unpack(buf, packed, &pos, &m, 1, MPI_INT, comm));
    CHECK(m == n && pos == 4, "count %d at position %d", m, pos);
    CHECK_MPI(MPI_Unpack(buf, packed, &pos, w, 5, MPI_DOUBLE, comm));
    CHECK_MPI(MPI_Unpack(buf, packed, &pos, w + 5, 7, MPI_DOUBLE, comm));
    for (int i = 0; i < 12; i++)
        CHECK(w[i] == dval(i / 3 * 5 + i % 3), "double %d is %g", i, w[i]);
    for (int i = 0; i < 4; i++)
        CHECK_MPI(MPI_Unpack(buf, packed, &pos, &got[i], 1, rt, comm));
    for (int i = 0; i < 4; i++)
        CHECK(got[i].i == i * 7 && got[i].d == dval(100 + i) &&
              got[i].c[0] == 'a' + i && got[i].c[2] == 'c',
              "record %d: %d %g %.3s", i, got[i].i, got[i].d, got[i].c);
    MPI_Datatype every_other;
    CHECK_MPI(MPI_Type_vector(5, 1, 2, MPI_CHAR, &every_other));
    CHECK_MPI(MPI_Type_commit(&every_other));
    CHECK_MPI(MPI_Unpack(buf, packed, &pos, s, 1, every_other, comm));
    CHECK(pos == packed, "unpacked %d of %d bytes", pos, packed);
    CHECK(!memcmp(s, "hxexlxlxox", 10), "chars: %.10s", s);
    CHECK_MPI(MPI_Type_free(&every_other));
    CHECK_MPI(MPI_Type_free(&vec));
    CHECK_MPI(MPI_Type_free(&rt));
    free(buf);
}

/* Bytes of any type, in pieces: 30 records packed from contiguous, then
   unpacked 1, 2, ... elements at a time into a strided layout. */
static void unpack_in_pieces(void)
{
    MPI_Comm comm = MPI_COMM_WORLD;
    MPI_Datatype rt = rec_type(), spaced;
    CHECK_MPI(MPI_Type_create_resized(rt, 0, 2 * sizeof(struct rec),
                                      &spaced));
    CHECK_MPI(MPI_Type_commit(&spaced));
    struct rec src[30], dst[60];
    memset(dst, 0x5a, sizeof dst);
    for (int i = 0; i < 30; i++)
        src[i] = (struct rec){-i, dval(i), {'x', 'y', (char)i}};
    char buf[30 * 15];
    int pos = 0;
    CHECK_MPI(MPI_Pack(src, 30, rt, buf, sizeof buf, &pos, comm));
    CHECK(pos == 30 * 15, "30 records packed into %d bytes", pos);
    pos = 0;
    for (int done = 0, k = 1; done < 30; done += k, k++) {
        int n = k < 30 - done ? k : 30 - done, before = pos;
        CHECK_MPI(MPI_Unpack(buf, sizeof buf, &pos, &dst[2 * done], n,
                             spaced, comm));
        CHECK(pos == before + n * 15, "position %d after %d more", pos, n);
    }
    for (int i = 0; i < 30; i++) {
        const struct rec *r = &dst[2 * i];
        CHECK(r->i == -i && r->d == dval(i) && r->c[2] == (char)i,
              "record %d: %d %g", i, r->i, r->d);
        const unsigned char *gap = (const unsigned char *)&dst[2 * i + 1];
        for (size_t b = 0; b < sizeof(struct rec); b++)
            CHECK(gap[b] == 0x5a, "gap after record %d written", i);
    }
    CHECK_MPI(MPI_Type_free(&spaced));
    CHECK_MPI(MPI_Type_free(&rt));
}

/* np=2: a packing unit sent as MPI_PACKED and unpacked from its head
   (count, then data); a typed message received as MPI_PACKED. */
static void packed_messages(int rank)
{
    MPI_Comm comm = MPI_COMM_WORLD;
    MPI_Datatype vec = strided(200);
    double v[1000];
    int bytes = 4 + 600 * 8;
    char *buf = malloc((size_t)bytes);
    CHECK(buf != NULL, "malloc");
    if (rank == 0) {
        int n = 600, pos = 0;
        for (int i = 0; i < 1000; i++)
            v[i] = dval(i);
        CHECK_MPI(MPI_Pack(&n, 1, MPI_INT, buf, bytes, &pos, comm));
        CHECK_MPI(MPI_Pack(v, 1, vec, buf, bytes, &pos, comm));
        CHECK_MPI(MPI_Send(buf, pos, MPI_PACKED, 1, 1, comm));
        CHECK_MPI(MPI_Send(v, 1, vec, 1, 2, comm));
    } else if (rank == 1) {
        MPI_Status st;
        int got, n, pos = 0;
        double w[600];
        CHECK_MPI(MPI_Probe(0, 1, comm, &st));
        CHECK_MPI(MPI_Get_count(&st, MPI_PACKED, &got));
        CHECK(got == bytes, "packed message of %d bytes, expected %d", got,
              bytes);
        CHECK_MPI(MPI_Recv(buf, got, MPI_PACKED, 0, 1, comm, &st));
        CHECK_MPI(MPI_Unpack(buf, got, &pos, &n, 1, MPI_INT, comm));
        CHECK(n == 600, "count %d", n);
        CHECK_MPI(MPI_Unpack(buf, got, &pos, w, n, MPI_DOUBLE, comm));
        for (int i = 0; i < 600; i++)
            CHECK(w[i] == dval(i / 3 * 5 + i % 3), "double %d: %g", i, w[i]);
        CHECK_MPI(MPI_Recv(buf, bytes, MPI_PACKED, 0, 2, comm, &st));
        CHECK_MPI(MPI_Get_count(&st, MPI_PACKED, &got));
        CHECK(got == 600 * 8, "typed message as %d packed bytes", got);
        memset(w, 0, sizeof w);
        pos = 0;
        CHECK_MPI(MPI_Unpack(buf, got, &pos, w, 600, MPI_DOUBLE, comm));
        for (int i = 0; i < 600; i++)
            CHECK(w[i] == dval(i / 3 * 5 + i % 3), "double %d: %g", i, w[i]);
    }
    CHECK_MPI(MPI_Type_free(&vec));
    free(buf);
}

static void errors(void)
{
    MPI_Comm comm = MPI_COMM_WORLD;
    int v[4] = {1, 2, 3, 4}, pos = 3, size;
    char buf[16];
    memset(buf, 0x11, sizeof buf);
    MPI_Datatype loose;
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &loose)); /* not committed */
    CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));

    /* 16 bytes from position 3 do not fit in 16 */
    CHECK_CLASS(MPI_Pack(v, 4, MPI_INT, buf, 16, &pos, comm),
                MPI_ERR_TRUNCATE);
    CHECK(pos == 3, "a failed pack moved position to %d", pos);
    for (int i = 0; i < 16; i++)
        CHECK(buf[i] == 0x11, "a failed pack wrote byte %d", i);
    pos = 8;
    CHECK_CLASS(MPI_Unpack(buf, 16, &pos, v, 3, MPI_INT, comm),
                MPI_ERR_TRUNCATE);
    CHECK(pos == 8 && v[0] == 1, "a failed unpack moved or wrote");
    CHECK_CLASS(MPI_Pack(v, -1, MPI_INT, buf, 16, &pos, comm),
                MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Pack(v, 1, MPI_DATATYPE_NULL, buf, 16, &pos, comm),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Pack(v, 1, loose, buf, 16, &pos, comm), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Unpack(buf, 16, &pos, v, 1, loose, comm), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Unpack(buf, 16, &pos, v, -2, MPI_INT, comm),
                MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Pack(v, 1, MPI_INT, buf, 16, &pos, MPI_COMM_NULL),
                MPI_ERR_COMM);
    CHECK_CLASS(MPI_Pack_size(1, MPI_DATATYPE_NULL, comm, &size),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Pack_size(1, MPI_INT, MPI_COMM_NULL, &size),
                MPI_ERR_COMM);
    CHECK(pos == 8, "position moved to %d", pos);

    CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_ARE_FATAL));
    CHECK_MPI(MPI_Type_free(&loose));
}

int main(int argc, char **argv)
{
    int rank, size;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    units_in_one_buffer();
    unpack_in_pieces();
    if (size >= 2)
        packed_messages(rank);
    errors();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
