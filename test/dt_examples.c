/* dt_examples: the derived datatype examples of MPI-3.1 chapter 4 that C can express (4.9-4.22: markers via resized, commit, type matching, Get_count/Get_elements, 3-D section, triangle, transposes, arrays of structs with relative and absolute addresses, unions, decoding, MPI_Pack), each checking the data it moves. */
/* shmpi-test: np=2 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fortran REAL arrays become C float arrays indexed in column-major
 * order, MPI_LB/MPI_UB markers (removed in MPI-3.0) become
 * MPI_Type_create_resized, and MPI_Address/MPI_Type_struct/
 * MPI_Type_hvector/MPI_Type_extent their MPI-2 replacements.  Rank 0
 * sends, rank 1 receives; the examples that send to self run on both.
 */
#include "dt_check.h"

#include <stddef.h>

static int rank;
static MPI_Comm comm;

static void check_extent(MPI_Datatype t, MPI_Aint lb, MPI_Aint extent,
                         MPI_Aint true_lb, MPI_Aint true_extent, int size,
                         const char *what)
{
    MPI_Aint l, e;
    int s;
    CHECK_MPI(MPI_Type_get_extent(t, &l, &e));
    CHECK(l == lb && e == extent, "%s: lb %ld extent %ld, expected %ld %ld",
          what, (long)l, (long)e, (long)lb, (long)extent);
    CHECK_MPI(MPI_Type_get_true_extent(t, &l, &e));
    CHECK(l == true_lb && e == true_extent,
          "%s: true lb %ld true extent %ld, expected %ld %ld", what, (long)l,
          (long)e, (long)true_lb, (long)true_extent);
    CHECK_MPI(MPI_Type_size(t, &s));
    CHECK(s == size, "%s: size %d, expected %d", what, s, size);
}

/* Example 4.9: type1 = {(lb,-3),(int,0),(ub,6)}, extent 9;
   type2 = contiguous(2, type1) = {(lb,-3),(int,0),(int,9),(ub,15)}. */
static void ex_4_9(void)
{
    MPI_Datatype type1, type2;
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, -3, 9, &type1));
    CHECK_MPI(MPI_Type_contiguous(2, type1, &type2));
    check_extent(type1, -3, 9, 0, 4, 4, "4.9 type1");
    check_extent(type2, -3, 18, 0, 13, 8, "4.9 type2");
    CHECK_MPI(MPI_Type_commit(&type1));
    CHECK_MPI(MPI_Type_commit(&type2));
    /* the ints sit 9 bytes apart, whatever the alignment */
    unsigned char buf[40];
    int v[4] = {11, 22, 33, 44}, got[4];
    if (rank == 0) {
        memset(buf, 0, sizeof buf);
        for (int i = 0; i < 4; i++)
            memcpy(buf + 3 + 9 * i, &v[i], sizeof(int));
        CHECK_MPI(MPI_Send(buf + 3, 2, type2, 1, 49, comm));
        CHECK_MPI(MPI_Send(buf + 3, 4, type1, 1, 49, comm));
    } else if (rank == 1) {
        MPI_Status st;
        CHECK_MPI(MPI_Recv(got, 4, MPI_INT, 0, 49, comm, &st));
        expect_counts(&st, MPI_INT, 4, 4, "4.9 two type2");
        CHECK(memcmp(got, v, sizeof v) == 0, "4.9: type2 x 2 sent %d %d %d %d",
              got[0], got[1], got[2], got[3]);
        /* received back into the 9-byte layout: the bytes between the
           ints stay as they were */
        memset(buf, 0x5a, sizeof buf);
        CHECK_MPI(MPI_Recv(buf + 3, 2, type2, 0, 49, comm, &st));
        expect_counts(&st, type2, 2, 4, "4.9 type2 receive");
        for (int k = 0; k < (int)sizeof buf; k++) {
            int in = k >= 3 && (k - 3) % 9 < 4 && (k - 3) / 9 < 4;
            if (in) {
                int val;
                memcpy(&val, buf + k - (k - 3) % 9, sizeof val);
                CHECK(val == v[(k - 3) / 9], "4.9: int %d is %d", (k - 3) / 9,
                      val);
            } else {
                CHECK(buf[k] == 0x5a, "4.9: gap byte %d written", k);
            }
        }
    }
    CHECK_MPI(MPI_Type_free(&type1));
    CHECK_MPI(MPI_Type_free(&type2));
}

/* Example 4.10: a handle copied before the variable gets a new type
   still names the first; committing twice is a no-op. */
static void ex_4_10(void)
{
    MPI_Datatype type1, type2;
    CHECK_MPI(MPI_Type_contiguous(5, MPI_FLOAT, &type1));
    CHECK_MPI(MPI_Type_commit(&type1));
    type2 = type1;
    CHECK_MPI(MPI_Type_vector(3, 5, 4, MPI_FLOAT, &type1));
    CHECK_MPI(MPI_Type_commit(&type1));
    CHECK_MPI(MPI_Type_commit(&type1));
    float a[14];
    for (int i = 0; i < 14; i++)
        a[i] = (float)i;
    if (rank == 0) {
        CHECK_MPI(MPI_Send(a, 1, type2, 1, 410, comm));
        CHECK_MPI(MPI_Send(a, 1, type1, 1, 410, comm));
    } else if (rank == 1) {
        float r[15];
        MPI_Status st;
        CHECK_MPI(MPI_Recv(r, 15, MPI_FLOAT, 0, 410, comm, &st));
        expect_counts(&st, MPI_FLOAT, 5, 5, "4.10 type2");
        for (int i = 0; i < 5; i++)
            CHECK(r[i] == (float)i, "4.10: type2 element %d is %g", i, r[i]);
        CHECK_MPI(MPI_Recv(r, 15, MPI_FLOAT, 0, 410, comm, &st));
        expect_counts(&st, MPI_FLOAT, 15, 15, "4.10 type1");
        for (int i = 0; i < 15; i++)
            CHECK(r[i] == (float)(i / 5 * 4 + i % 5),
                  "4.10: vector element %d is %g", i, r[i]);
    }
    CHECK_MPI(MPI_Type_free(&type1));
    CHECK_MPI(MPI_Type_free(&type2));
    CHECK(type2 == MPI_DATATYPE_NULL, "4.10: MPI_Type_free kept the handle");
}

/* Example 4.11: each of four sends of 4 floats matches each of four
   receives: matching goes by the sequence of basic types. */
static void ex_4_11(void)
{
    MPI_Datatype type2, type4, type22;
    CHECK_MPI(MPI_Type_contiguous(2, MPI_FLOAT, &type2));
    CHECK_MPI(MPI_Type_contiguous(4, MPI_FLOAT, &type4));
    CHECK_MPI(MPI_Type_contiguous(2, type2, &type22));
    CHECK_MPI(MPI_Type_commit(&type2));
    CHECK_MPI(MPI_Type_commit(&type4));
    CHECK_MPI(MPI_Type_commit(&type22));
    MPI_Datatype types[4] = {MPI_FLOAT, type2, type22, type4};
    int counts[4] = {4, 2, 1, 1};
    for (int s = 0; s < 4; s++)
        for (int r = 0; r < 4; r++) {
            float a[4];
            if (rank == 0) {
                for (int i = 0; i < 4; i++)
                    a[i] = (float)(100 * s + 10 * r + i);
                CHECK_MPI(MPI_Send(a, counts[s], types[s], 1, 411, comm));
            } else if (rank == 1) {
                MPI_Status st;
                memset(a, 0, sizeof a);
                CHECK_MPI(MPI_Recv(a, counts[r], types[r], 0, 411, comm, &st));
                expect_counts(&st, types[r], counts[r], 4, "4.11");
                for (int i = 0; i < 4; i++)
                    CHECK(a[i] == (float)(100 * s + 10 * r + i),
                          "4.11: send %d receive %d: element %d is %g", s, r,
                          i, a[i]);
            }
        }
    CHECK_MPI(MPI_Type_free(&type2));
    CHECK_MPI(MPI_Type_free(&type4));
    CHECK_MPI(MPI_Type_free(&type22));
}

/* Example 4.12: 2 floats received as Type2 count 1, elements 2; then 3
   floats: count MPI_UNDEFINED (a partial Type2), elements 3, also from
   MPI_Probe's status. */
static void ex_4_12(void)
{
    MPI_Datatype type2;
    CHECK_MPI(MPI_Type_contiguous(2, MPI_FLOAT, &type2));
    CHECK_MPI(MPI_Type_commit(&type2));
    float a[4] = {1.5f, 2.5f, 3.5f, 4.5f};
    if (rank == 0) {
        CHECK_MPI(MPI_Send(a, 2, MPI_FLOAT, 1, 412, comm));
        CHECK_MPI(MPI_Send(a, 3, MPI_FLOAT, 1, 412, comm));
    } else if (rank == 1) {
        MPI_Status st;
        float r[4] = {0, 0, 0, -1};
        CHECK_MPI(MPI_Recv(r, 2, type2, 0, 412, comm, &st));
        expect_counts(&st, type2, 1, 2, "4.12 first");
        CHECK(r[0] == 1.5f && r[1] == 2.5f && r[2] == 0, "4.12: first data");
        /* the same answers after a probe */
        CHECK_MPI(MPI_Probe(0, 412, comm, &st));
        expect_counts(&st, type2, MPI_UNDEFINED, 3, "4.12 probe");
        CHECK_MPI(MPI_Recv(r, 2, type2, 0, 412, comm, &st));
        expect_counts(&st, type2, MPI_UNDEFINED, 3, "4.12 second");
        CHECK(r[0] == 1.5f && r[1] == 2.5f && r[2] == 3.5f && r[3] == -1,
              "4.12: second data %g %g %g %g", r[0], r[1], r[2], r[3]);
    }
    CHECK_MPI(MPI_Type_free(&type2));
}

/* Example 4.13: send a(1:17:2, 3:11, 2:10) of REAL a(100,100,100) to
   self, received as 729 contiguous reals. */
static void ex_4_13(void)
{
    enum { N = 100 };
    float *a = malloc(sizeof(float) * N * N * N), e[9 * 9 * 9];
    CHECK(a, "out of memory");
    for (long i = 0; i < (long)N * N * N; i++)
        a[i] = (float)i;
    MPI_Aint lb, sizeofreal;
    CHECK_MPI(MPI_Type_get_extent(MPI_FLOAT, &lb, &sizeofreal));
    MPI_Datatype oneslice, twoslice, threeslice;
    CHECK_MPI(MPI_Type_vector(9, 1, 2, MPI_FLOAT, &oneslice));
    CHECK_MPI(MPI_Type_create_hvector(9, 1, 100 * sizeofreal, oneslice,
                                      &twoslice));
    CHECK_MPI(MPI_Type_create_hvector(9, 1, 100 * 100 * sizeofreal,
                                      twoslice, &threeslice));
    CHECK_MPI(MPI_Type_commit(&threeslice));
    MPI_Status st;
    /* a(1,3,2) is element (0, 2, 1) counted from 0 */
    CHECK_MPI(MPI_Sendrecv(a + 0 + N * 2 + N * N * 1, 1, threeslice, rank, 413,
                           e, 9 * 9 * 9, MPI_FLOAT, rank, 413, comm, &st));
    expect_counts(&st, MPI_FLOAT, 729, 729, "4.13");
    for (int k = 0; k < 9; k++)
        for (int j = 0; j < 9; j++)
            for (int i = 0; i < 9; i++) {
                float want = a[2 * i + N * (2 + j) + N * N * (1 + k)];
                CHECK(e[i + 9 * j + 81 * k] == want,
                      "4.13: e(%d,%d,%d) is %g, expected %g", i + 1, j + 1,
                      k + 1, e[i + 9 * j + 81 * k], want);
            }
    CHECK_MPI(MPI_Type_free(&oneslice));
    CHECK_MPI(MPI_Type_free(&twoslice));
    CHECK_MPI(MPI_Type_free(&threeslice));
    free(a);
}

/* Example 4.14: copy the strictly lower triangle of a(100,100) onto b's,
   leaving the rest of b alone. */
static void ex_4_14(void)
{
    enum { N = 100 };
    static float a[N * N], b[N * N];
    int disp[N], blocklen[N];
    for (int i = 0; i < N * N; i++) {
        a[i] = (float)i;
        b[i] = -1;
    }
    for (int i = 1; i <= N; i++) {
        disp[i - 1] = N * (i - 1) + i;
        blocklen[i - 1] = N - i;
    }
    MPI_Datatype ltype;
    CHECK_MPI(MPI_Type_indexed(N, blocklen, disp, MPI_FLOAT, &ltype));
    CHECK_MPI(MPI_Type_commit(&ltype));
    MPI_Status st;
    CHECK_MPI(MPI_Sendrecv(a, 1, ltype, rank, 414, b, 1, ltype, rank, 414,
                           comm, &st));
    expect_counts(&st, ltype, 1, N * (N - 1) / 2, "4.14");
    for (int col = 0; col < N; col++)
        for (int row = 0; row < N; row++) {
            int k = row + N * col;
            CHECK(b[k] == (row > col ? a[k] : -1),
                  "4.14: b(%d,%d) is %g", row + 1, col + 1, b[k]);
        }
    CHECK_MPI(MPI_Type_free(&ltype));
}

static void check_transpose(const float *a, const float *b, const char *what)
{
    for (int col = 0; col < 100; col++)
        for (int row = 0; row < 100; row++)
            CHECK(b[row + 100 * col] == a[col + 100 * row],
                  "%s: b(%d,%d) is %g, expected a(%d,%d) = %g", what, row + 1,
                  col + 1, b[row + 100 * col], col + 1, row + 1,
                  a[col + 100 * row]);
}

/* Examples 4.15 and 4.16: transpose a(100,100) onto b, with an hvector
   of rows, then with 100 rows resized to the extent of one real. */
static void ex_4_15_16(void)
{
    static float a[100 * 100], b[100 * 100];
    for (int i = 0; i < 100 * 100; i++)
        a[i] = (float)i;
    MPI_Aint lb, sizeofreal;
    CHECK_MPI(MPI_Type_get_extent(MPI_FLOAT, &lb, &sizeofreal));
    MPI_Datatype row, xpose, row1;
    CHECK_MPI(MPI_Type_vector(100, 1, 100, MPI_FLOAT, &row));
    CHECK_MPI(MPI_Type_create_hvector(100, 1, sizeofreal, row, &xpose));
    CHECK_MPI(MPI_Type_commit(&xpose));
    MPI_Status st;
    memset(b, 0, sizeof b);
    CHECK_MPI(MPI_Sendrecv(a, 1, xpose, rank, 415, b, 100 * 100, MPI_FLOAT,
                           rank, 415, comm, &st));
    check_transpose(a, b, "4.15");

    CHECK_MPI(MPI_Type_create_resized(row, 0, sizeofreal, &row1));
    CHECK_MPI(MPI_Type_commit(&row1));
    check_extent(row1, 0, sizeofreal, 0, (99 * 100 + 1) * sizeofreal,
                 100 * (int)sizeofreal, "4.16 row1");
    memset(b, 0, sizeof b);
    CHECK_MPI(MPI_Sendrecv(a, 100, row1, rank, 416, b, 100 * 100, MPI_FLOAT,
                           rank, 416, comm, &st));
    check_transpose(a, b, "4.16");
    /* and back: receiving with the transposing type */
    static float c[100 * 100];
    CHECK_MPI(MPI_Sendrecv(b, 100 * 100, MPI_FLOAT, rank, 416, c, 100, row1,
                           rank, 416, comm, &st));
    expect_counts(&st, row1, 100, 100 * 100, "4.16 back");
    CHECK(memcmp(a, c, sizeof a) == 0, "4.16: transposing twice changed a");
    CHECK_MPI(MPI_Type_free(&row));
    CHECK_MPI(MPI_Type_free(&xpose));
    CHECK_MPI(MPI_Type_free(&row1));
}

/* Examples 4.17 and 4.18: an array of structures. */
struct Partstruct {
    int class;    /* particle class */
    double d[6];  /* particle coordinates */
    char b[7];    /* some additional information */
};
#define NPART 1000
#define PART_ELEMS 14   /* basic elements of one Partstruct */

static void make_particles(struct Partstruct *p)
{
    memset(p, 0, NPART * sizeof *p);
    for (int i = 0; i < NPART; i++) {
        /* runs of class-zero particles of varying lengths */
        p[i].class = (i % 7 < 3 || i % 11 == 0) ? 0 : 1 + i % 5;
        for (int k = 0; k < 6; k++)
            p[i].d[k] = i + k / 10.0;
        for (int k = 0; k < 7; k++)
            p[i].b[k] = (char)('a' + (i + k) % 26);
    }
}

static int same_particle(const struct Partstruct *x, const struct Partstruct *y)
{
    return x->class == y->class && memcmp(x->d, y->d, sizeof x->d) == 0 &&
           memcmp(x->b, y->b, sizeof x->b) == 0;
}

/* Particletype with displacements relative to the start of a particle
   (4.17) or absolute ones of particle[0] (4.18, relative == 0), resized
   to the size of the C struct so counts step over its padding. */
static MPI_Datatype particle_type(struct Partstruct *particle, int relative)
{
    MPI_Datatype type[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR}, t, resized;
    int blocklen[3] = {1, 6, 7};
    MPI_Aint disp[3], base, next;
    CHECK_MPI(MPI_Get_address(particle, &disp[0]));
    CHECK_MPI(MPI_Get_address(particle[0].d, &disp[1]));
    CHECK_MPI(MPI_Get_address(particle[0].b, &disp[2]));
    CHECK_MPI(MPI_Get_address(particle + 1, &next));
    base = disp[0];
    if (relative)
        for (int i = 0; i < 3; i++)
            disp[i] -= base;
    CHECK_MPI(MPI_Type_create_struct(3, blocklen, disp, type, &t));
    MPI_Aint lb, extent;
    CHECK_MPI(MPI_Type_get_extent(t, &lb, &extent));
    CHECK(extent == (MPI_Aint)sizeof(struct Partstruct),
          "4.17: the struct's extent %ld is not sizeof %zu", (long)extent,
          sizeof(struct Partstruct));
    CHECK_MPI(MPI_Type_create_resized(t, relative ? 0 : base, next - base,
                                      &resized));
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_commit(&resized));
    return resized;
}

/* The class-zero particles as blocks of consecutive ones. */
static int zero_blocks(const struct Partstruct *particle, int *zdisp,
                       int *zblock)
{
    int j = 0;
    for (int i = 0; i < NPART; i++)
        if (particle[i].class == 0) {
            int k = i + 1;
            while (k < NPART && particle[k].class == 0)
                k++;
            zdisp[j] = i;
            zblock[j] = k - i;
            j++;
            i = k;
        }
    return j;
}

/* Receives a count followed by that many particles, as 4.17.2 and
   4.18.2 send them, and checks them against the class-zero ones. */
static void recv_class_zero(const struct Partstruct *sent, int tag)
{
    static struct Partstruct got[NPART];
    struct Partstruct *orig = (struct Partstruct *)sent;
    MPI_Datatype ptype = particle_type(orig, 1), rtype;
    int count = -1, bl[2] = {1, NPART};
    MPI_Aint disp[2];
    MPI_Datatype types[2] = {MPI_INT, ptype};
    CHECK_MPI(MPI_Get_address(&count, &disp[0]));
    CHECK_MPI(MPI_Get_address(got, &disp[1]));
    CHECK_MPI(MPI_Type_create_struct(2, bl, disp, types, &rtype));
    CHECK_MPI(MPI_Type_commit(&rtype));
    memset(got, 0, sizeof got);
    MPI_Status st;
    CHECK_MPI(MPI_Recv(MPI_BOTTOM, 1, rtype, 0, tag, comm, &st));
    int nzero = 0;
    for (int i = 0; i < NPART; i++)
        if (sent[i].class == 0)
            CHECK(same_particle(&got[nzero++], &sent[i]),
                  "4.17: class-zero particle %d (#%d) differs", i, nzero - 1);
    CHECK(count == nzero, "4.17: count %d, expected %d", count, nzero);
    expect_counts(&st, rtype, MPI_UNDEFINED, 1 + nzero * PART_ELEMS,
                  "4.17 class zero");
    for (int i = nzero; i < NPART; i++)
        CHECK(got[i].class == 0 && got[i].d[0] == 0,
              "4.17: particle %d past the count written", i);
    CHECK_MPI(MPI_Type_free(&ptype));
    CHECK_MPI(MPI_Type_free(&rtype));
}

static void ex_4_17(void)
{
    static struct Partstruct particle[NPART], got[NPART];
    make_particles(particle);
    MPI_Datatype Particletype = particle_type(particle, 1);
    MPI_Status st;

    /* 4.17.1: the entire array */
    if (rank == 0) {
        CHECK_MPI(MPI_Send(particle, NPART, Particletype, 1, 4171, comm));
    } else if (rank == 1) {
        memset(got, 0, sizeof got);
        CHECK_MPI(MPI_Recv(got, NPART, Particletype, 0, 4171, comm, &st));
        expect_counts(&st, Particletype, NPART, NPART * PART_ELEMS, "4.17.1");
        for (int i = 0; i < NPART; i++)
            CHECK(same_particle(&got[i], &particle[i]),
                  "4.17.1: particle %d differs", i);
    }

    /* 4.17.2: the class-zero particles, preceded by their number, with
       one block per particle and then one per run of them */
    for (int runs = 0; runs < 2; runs++) {
        if (rank == 0) {
            static int zdisp[NPART], zblock[NPART];
            int j = 0;
            if (runs) {
                j = zero_blocks(particle, zdisp, zblock);
            } else {
                for (int i = 0; i < NPART; i++)
                    if (particle[i].class == 0) {
                        zdisp[j] = i;
                        zblock[j] = 1;
                        j++;
                    }
            }
            MPI_Datatype Zparticles, Ztype, zztype[2];
            int zzblock[2] = {1, 1}, n = 0;
            MPI_Aint zzdisp[2];
            CHECK_MPI(MPI_Type_indexed(j, zblock, zdisp, Particletype,
                                       &Zparticles));
            for (int i = 0; i < j; i++)
                n += zblock[i];
            CHECK_MPI(MPI_Get_address(&n, &zzdisp[0]));
            CHECK_MPI(MPI_Get_address(particle, &zzdisp[1]));
            zztype[0] = MPI_INT;
            zztype[1] = Zparticles;
            CHECK_MPI(MPI_Type_create_struct(2, zzblock, zzdisp, zztype,
                                             &Ztype));
            CHECK_MPI(MPI_Type_commit(&Ztype));
            CHECK_MPI(MPI_Send(MPI_BOTTOM, 1, Ztype, 1, 4172, comm));
            CHECK_MPI(MPI_Type_free(&Zparticles));
            CHECK_MPI(MPI_Type_free(&Ztype));
        } else if (rank == 1) {
            recv_class_zero(particle, 4172);
        }
    }

    /* 4.17.3: the first two coordinates of all entries, as an hvector
       and as count copies of a pair resized to one entry */
    MPI_Aint lb, sizeofentry;
    CHECK_MPI(MPI_Type_get_extent(Particletype, &lb, &sizeofentry));
    MPI_Datatype Allpairs, pair, Onepair;
    CHECK_MPI(MPI_Type_create_hvector(NPART, 2, sizeofentry, MPI_DOUBLE,
                                      &Allpairs));
    CHECK_MPI(MPI_Type_commit(&Allpairs));
    CHECK_MPI(MPI_Type_contiguous(2, MPI_DOUBLE, &pair));
    CHECK_MPI(MPI_Type_create_resized(pair, 0, sizeofentry, &Onepair));
    CHECK_MPI(MPI_Type_commit(&Onepair));
    if (rank == 0) {
        CHECK_MPI(MPI_Send(particle[0].d, 1, Allpairs, 1, 4173, comm));
        CHECK_MPI(MPI_Send(particle[0].d, NPART, Onepair, 1, 4173, comm));
    } else if (rank == 1) {
        static double pairs[2 * NPART];
        for (int v = 0; v < 2; v++) {
            memset(pairs, 0, sizeof pairs);
            CHECK_MPI(MPI_Recv(pairs, 2 * NPART, MPI_DOUBLE, 0, 4173, comm,
                               &st));
            expect_counts(&st, MPI_DOUBLE, 2 * NPART, 2 * NPART, "4.17.3");
            for (int i = 0; i < NPART; i++)
                CHECK(pairs[2 * i] == particle[i].d[0] &&
                          pairs[2 * i + 1] == particle[i].d[1],
                      "4.17.3 (%s): pair %d is %g %g",
                      v ? "Onepair" : "Allpairs", i, pairs[2 * i],
                      pairs[2 * i + 1]);
        }
    }
    CHECK_MPI(MPI_Type_free(&Allpairs));
    CHECK_MPI(MPI_Type_free(&pair));
    CHECK_MPI(MPI_Type_free(&Onepair));
    CHECK_MPI(MPI_Type_free(&Particletype));
}

static void ex_4_18(void)
{
    static struct Partstruct particle[NPART], got[NPART];
    make_particles(particle);
    /* 4.18.1: the entire array, from MPI_BOTTOM */
    MPI_Datatype Particletype = particle_type(particle, 0);
    MPI_Status st;
    if (rank == 0) {
        CHECK_MPI(MPI_Send(MPI_BOTTOM, NPART, Particletype, 1, 4181, comm));
    } else if (rank == 1) {
        MPI_Datatype rel = particle_type(got, 1);
        memset(got, 0, sizeof got);
        CHECK_MPI(MPI_Recv(got, NPART, rel, 0, 4181, comm, &st));
        for (int i = 0; i < NPART; i++)
            CHECK(same_particle(&got[i], &particle[i]),
                  "4.18.1: particle %d differs", i);
        CHECK_MPI(MPI_Type_free(&rel));
    }

    /* 4.18.2: the class-zero runs with their number, all absolute */
    if (rank == 0) {
        static int zdisp[NPART], zblock[NPART];
        int j = zero_blocks(particle, zdisp, zblock), n = 0;
        for (int i = 0; i < j; i++)
            n += zblock[i];
        MPI_Datatype Zparticles, Ztype, zztype[2];
        int zzblock[2] = {1, 1};
        MPI_Aint zzdisp[2];
        CHECK_MPI(MPI_Type_indexed(j, zblock, zdisp, Particletype,
                                   &Zparticles));
        CHECK_MPI(MPI_Get_address(&n, &zzdisp[0]));
        zzdisp[1] = 0; /* MPI_BOTTOM: Zparticles holds absolute addresses */
        zztype[0] = MPI_INT;
        zztype[1] = Zparticles;
        CHECK_MPI(MPI_Type_create_struct(2, zzblock, zzdisp, zztype, &Ztype));
        CHECK_MPI(MPI_Type_commit(&Ztype));
        CHECK_MPI(MPI_Send(MPI_BOTTOM, 1, Ztype, 1, 4182, comm));
        CHECK_MPI(MPI_Type_free(&Zparticles));
        CHECK_MPI(MPI_Type_free(&Ztype));
    } else if (rank == 1) {
        recv_class_zero(particle, 4182);
    }
    CHECK_MPI(MPI_Type_free(&Particletype));
}

/* Example 4.19: a union array sent as ints or as floats, with a type per
   member resized to the union's extent; a union with a double leaves
   gaps the receiver must not touch. */
static void ex_4_19(void)
{
    union {
        int ival;
        float fval;
    } u[1000];
    union {
        int ival;
        double dval;
    } w[100];
    MPI_Datatype mpi_utype[2], wide;
    MPI_Aint i, j;
    memset(u, 0, sizeof u);
    memset(w, 0, sizeof w);
    CHECK_MPI(MPI_Get_address(u, &i));
    CHECK_MPI(MPI_Get_address(u + 1, &j));
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, j - i, &mpi_utype[0]));
    CHECK_MPI(MPI_Type_create_resized(MPI_FLOAT, 0, j - i, &mpi_utype[1]));
    CHECK_MPI(MPI_Get_address(w, &i));
    CHECK_MPI(MPI_Get_address(w + 1, &j));
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, j - i, &wide));
    for (int k = 0; k < 2; k++)
        CHECK_MPI(MPI_Type_commit(&mpi_utype[k]));
    CHECK_MPI(MPI_Type_commit(&wide));
    for (int utype = 0; utype < 2; utype++) {
        if (rank == 0) {
            for (int k = 0; k < 1000; k++) {
                if (utype)
                    u[k].fval = k + 0.25f;
                else
                    u[k].ival = -k;
            }
            CHECK_MPI(MPI_Send(u, 1000, mpi_utype[utype], 1, 419, comm));
        } else if (rank == 1) {
            MPI_Status st;
            memset(u, 0, sizeof u);
            CHECK_MPI(MPI_Recv(u, 1000, mpi_utype[utype], 0, 419, comm, &st));
            expect_counts(&st, mpi_utype[utype], 1000, 1000, "4.19");
            for (int k = 0; k < 1000; k++)
                CHECK(utype ? u[k].fval == k + 0.25f : u[k].ival == -k,
                      "4.19: u[%d] wrong", k);
        }
    }
    if (rank == 0) {
        for (int k = 0; k < 100; k++)
            w[k].ival = 7 * k;
        CHECK_MPI(MPI_Send(w, 100, wide, 1, 419, comm));
    } else if (rank == 1) {
        memset(w, 0xee, sizeof w);
        CHECK_MPI(MPI_Recv(w, 100, wide, 0, 419, comm, MPI_STATUS_IGNORE));
        for (int k = 0; k < 100; k++) {
            CHECK(w[k].ival == 7 * k, "4.19: w[%d].ival %d", k, w[k].ival);
            const unsigned char *rest = (const unsigned char *)&w[k];
            for (size_t b = sizeof(int); b < sizeof w[k]; b++)
                CHECK(rest[b] == 0xee, "4.19: byte %zu of w[%d] written", b,
                      k);
        }
    }
    for (int k = 0; k < 2; k++)
        CHECK_MPI(MPI_Type_free(&mpi_utype[k]));
    CHECK_MPI(MPI_Type_free(&wide));
}

/* Example 4.20: decode a datatype, recursively, freeing the derived
   types MPI_Type_get_contents returns; instead of printing it appends
   what it finds to out.  Returns 0 for a named type, 1 otherwise. */
static int printdatatype(MPI_Datatype datatype, char *out, size_t len)
{
    int *array_of_ints;
    MPI_Aint *array_of_adds;
    MPI_Datatype *array_of_dtypes;
    int num_ints, num_adds, num_dtypes, combiner;
    size_t at = strlen(out);
    CHECK_MPI(MPI_Type_get_envelope(datatype, &num_ints, &num_adds,
                                    &num_dtypes, &combiner));
    if (combiner == MPI_COMBINER_NAMED) {
        const char *name = datatype == MPI_INT      ? "MPI_INT"
                           : datatype == MPI_DOUBLE ? "MPI_DOUBLE"
                           : datatype == MPI_CHAR   ? "MPI_CHAR"
                                                    : "other";
        snprintf(out + at, len - at, "%s", name);
        return 0;
    }
    array_of_ints = malloc(sizeof(int) * (size_t)(num_ints + 1));
    array_of_adds = malloc(sizeof(MPI_Aint) * (size_t)(num_adds + 1));
    array_of_dtypes = malloc(sizeof(MPI_Datatype) * (size_t)(num_dtypes + 1));
    CHECK(array_of_ints && array_of_adds && array_of_dtypes, "out of memory");
    CHECK_MPI(MPI_Type_get_contents(datatype, num_ints, num_adds, num_dtypes,
                                    array_of_ints, array_of_adds,
                                    array_of_dtypes));
    switch (combiner) {
    case MPI_COMBINER_STRUCT:
        CHECK(num_ints == array_of_ints[0] + 1 &&
                  num_adds == array_of_ints[0] &&
                  num_dtypes == array_of_ints[0],
              "4.20: struct envelope %d %d %d", num_ints, num_adds,
              num_dtypes);
        snprintf(out + at, len - at, "struct %d datatypes:", array_of_ints[0]);
        for (int i = 0; i < array_of_ints[0]; i++) {
            at = strlen(out);
            snprintf(out + at, len - at, " [blocklength %d, displacement %ld, "
                     "type ", array_of_ints[i + 1], (long)array_of_adds[i]);
            if (printdatatype(array_of_dtypes[i], out, len))
                CHECK_MPI(MPI_Type_free(&array_of_dtypes[i]));
            at = strlen(out);
            snprintf(out + at, len - at, "]");
        }
        break;
    case MPI_COMBINER_VECTOR:
        CHECK(num_ints == 3 && num_adds == 0 && num_dtypes == 1,
              "4.20: vector envelope %d %d %d", num_ints, num_adds,
              num_dtypes);
        snprintf(out + at, len - at, "vector(%d, %d, %d, ", array_of_ints[0],
                 array_of_ints[1], array_of_ints[2]);
        if (printdatatype(array_of_dtypes[0], out, len))
            CHECK_MPI(MPI_Type_free(&array_of_dtypes[0]));
        at = strlen(out);
        snprintf(out + at, len - at, ")");
        break;
    case MPI_COMBINER_DUP:
        CHECK(num_ints == 0 && num_adds == 0 && num_dtypes == 1,
              "4.20: dup envelope %d %d %d", num_ints, num_adds, num_dtypes);
        snprintf(out + at, len - at, "dup(");
        if (printdatatype(array_of_dtypes[0], out, len))
            CHECK_MPI(MPI_Type_free(&array_of_dtypes[0]));
        at = strlen(out);
        snprintf(out + at, len - at, ")");
        break;
    default:
        snprintf(out + at, len - at, "unrecognized combiner %d", combiner);
    }
    free(array_of_ints);
    free(array_of_adds);
    free(array_of_dtypes);
    return 1;
}

static void ex_4_20(void)
{
    MPI_Datatype vec, dupd, dupvec, t;
    CHECK_MPI(MPI_Type_vector(2, 3, 4, MPI_DOUBLE, &vec));
    CHECK_MPI(MPI_Type_dup(MPI_CHAR, &dupd));
    CHECK_MPI(MPI_Type_dup(vec, &dupvec));
    MPI_Datatype types[4] = {MPI_INT, vec, dupd, dupvec};
    int bl[4] = {1, 2, 3, 1};
    MPI_Aint disp[4] = {0, 8, 200, -64};
    CHECK_MPI(MPI_Type_create_struct(4, bl, disp, types, &t));
    /* the arguments are as good as copied: freeing them changes nothing */
    CHECK_MPI(MPI_Type_free(&vec));
    CHECK_MPI(MPI_Type_free(&dupd));
    CHECK_MPI(MPI_Type_free(&dupvec));
    char out[1024] = "";
    CHECK(printdatatype(t, out, sizeof out) == 1, "4.20: derived type named");
    const char *want =
        "struct 4 datatypes:"
        " [blocklength 1, displacement 0, type MPI_INT]"
        " [blocklength 2, displacement 8, type vector(2, 3, 4, MPI_DOUBLE)]"
        " [blocklength 3, displacement 200, type dup(MPI_CHAR)]"
        " [blocklength 1, displacement -64, type "
        "dup(vector(2, 3, 4, MPI_DOUBLE))]";
    CHECK(strcmp(out, want) == 0, "4.20: decoded\n  %s\nexpected\n  %s", out,
          want);
    out[0] = '\0';
    CHECK(printdatatype(MPI_DOUBLE, out, sizeof out) == 0 &&
              strcmp(out, "MPI_DOUBLE") == 0,
          "4.20: MPI_DOUBLE decoded as %s", out);
    CHECK_MPI(MPI_Type_free(&t));
}

/* Example 4.21: two ints packed, sent as MPI_PACKED, received as ints. */
static void ex_4_21(void)
{
    int position, i = 17, j = -42, a[2];
    char buff[1000];
    if (rank == 0) {
        position = 0;
        CHECK_MPI(MPI_Pack(&i, 1, MPI_INT, buff, 1000, &position, comm));
        CHECK_MPI(MPI_Pack(&j, 1, MPI_INT, buff, 1000, &position, comm));
        CHECK(position == 2 * (int)sizeof(int), "4.21: position %d", position);
        CHECK_MPI(MPI_Send(buff, position, MPI_PACKED, 1, 421, comm));
    } else if (rank == 1) {
        MPI_Status st;
        CHECK_MPI(MPI_Recv(a, 2, MPI_INT, 0, 421, comm, &st));
        expect_counts(&st, MPI_INT, 2, 2, "4.21");
        CHECK(a[0] == 17 && a[1] == -42, "4.21: received %d %d", a[0], a[1]);
    }
}

/* Example 4.22: i followed by a[0..i-1], packed through an absolute
   struct (or sent with it directly), received as MPI_PACKED and
   unpacked in two steps. */
static void ex_4_22(void)
{
    int position, i;
    float a[1000];
    char buff[1000 * sizeof(float)];
    for (int send_direct = 0; send_direct < 2; send_direct++) {
        if (rank == 0) {
            int len[2];
            MPI_Aint disp[2];
            MPI_Datatype type[2], newtype;
            i = 37 + send_direct;
            for (int k = 0; k < i; k++)
                a[k] = k * 1.5f;
            len[0] = 1;
            len[1] = i;
            CHECK_MPI(MPI_Get_address(&i, disp));
            CHECK_MPI(MPI_Get_address(a, disp + 1));
            type[0] = MPI_INT;
            type[1] = MPI_FLOAT;
            CHECK_MPI(MPI_Type_create_struct(2, len, disp, type, &newtype));
            CHECK_MPI(MPI_Type_commit(&newtype));
            if (send_direct) {
                CHECK_MPI(MPI_Send(MPI_BOTTOM, 1, newtype, 1, 422, comm));
            } else {
                position = 0;
                CHECK_MPI(MPI_Pack(MPI_BOTTOM, 1, newtype, buff, sizeof buff,
                                   &position, comm));
                CHECK_MPI(MPI_Send(buff, position, MPI_PACKED, 1, 422, comm));
            }
            CHECK_MPI(MPI_Type_free(&newtype));
        } else if (rank == 1) {
            MPI_Status status;
            CHECK_MPI(MPI_Recv(buff, sizeof buff, MPI_PACKED, 0, 422, comm,
                               &status));
            int got;
            CHECK_MPI(MPI_Get_count(&status, MPI_PACKED, &got));
            position = 0;
            CHECK_MPI(MPI_Unpack(buff, got, &position, &i, 1, MPI_INT, comm));
            CHECK(i == 37 + send_direct, "4.22: i is %d", i);
            memset(a, 0, sizeof a);
            CHECK_MPI(MPI_Unpack(buff, got, &position, a, i, MPI_FLOAT, comm));
            CHECK(position == got, "4.22: unpacked %d of %d bytes", position,
                  got);
            for (int k = 0; k < i; k++)
                CHECK(a[k] == k * 1.5f, "4.22: a[%d] is %g", k, a[k]);
            CHECK(a[i] == 0, "4.22: a[%d] written", i);
        }
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    comm = MPI_COMM_WORLD;
    MPI_Comm_rank(comm, &rank);
    ex_4_9();
    ex_4_10();
    ex_4_11();
    ex_4_12();
    ex_4_13();
    ex_4_14();
    ex_4_15_16();
    ex_4_17();
    ex_4_18();
    ex_4_19();
    ex_4_20();
    ex_4_21();
    ex_4_22();
    MPI_Finalize();
    return 0;
}
