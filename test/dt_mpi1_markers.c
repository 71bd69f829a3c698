/* dt_mpi1_markers: the MPI-1 bound markers MPI_LB and MPI_UB (removed in MPI-3.0, deprecated names in shmpi) in MPI_Type_struct and the other constructors: bounds and extent (MPI_Type_lb/ub/extent and get_extent, true extent unaffected), one marker alone, replication and stickiness, resized erasing them, envelope and contents, elements, pack/unpack and a send/recv of such a type, unaffected by the markers. */
/* shmpi-test: np=1,2 timeout=30 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * MPI-2.2 4.1.6: lb is the least displacement of an MPI_LB entry, ub the
 * greatest of an MPI_UB entry; a bound without its marker comes from the
 * data, ub with the alignment epsilon.  Markers occupy no space and are
 * no element; they travel into every type built from the marked one.
 * Expected values are Open MPI 4.1's (its ompi_mpi_lb/ub objects, the
 * same program with the MPI-2 constructors) and, but for the epsilon
 * after a lone MPI_LB (Open MPI and MPI-2.2: 16, MPICH 12), MPICH 4.0's;
 * except in two cases where the standard's typemap says otherwise:
 * markers without data ({UB@8}: Open MPI's bounds are garbage, MPICH's
 * 0 and 8, as here) and a marker as the oldtype of hindexed, whose
 * markers both peers drop (lb 0, extent 0) and MPI-2.2's typemap keeps.
 */
/* The names under test are deprecated: their warnings are expected. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#include "dt_check.h"

#include <string.h>

static MPI_Datatype make_struct(int n, int *lens, MPI_Aint *disps,
                                MPI_Datatype *types)
{
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_struct(n, lens, disps, types, &t));
    return t;
}

/* The MPI-1 queries agree with MPI_Type_get_extent, and give want. */
static void expect_mpi1(MPI_Datatype t, const char *what, struct bounds want)
{
    MPI_Aint lb = -1, ub = -1, extent = -1;
    expect(t, what, want);
    CHECK_MPI(MPI_Type_lb(t, &lb));
    CHECK_MPI(MPI_Type_ub(t, &ub));
    CHECK_MPI(MPI_Type_extent(t, &extent));
    CHECK(lb == want.lb && extent == want.extent &&
          ub == want.lb + want.extent, "%s: MPI_Type_lb/ub/extent %ld %ld "
          "%ld, expected %ld %ld %ld", what, (long)lb, (long)ub,
          (long)extent, (long)want.lb, (long)(want.lb + want.extent),
          (long)want.extent);
}

static void markers_themselves(void)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    expect_mpi1(MPI_LB, "MPI_LB", (struct bounds){0, 0, 0, 0, 0});
    expect_mpi1(MPI_UB, "MPI_UB", (struct bounds){0, 0, 0, 0, 0});
    CHECK(is_named(MPI_LB) && is_named(MPI_UB), "the markers are named");
    CHECK_MPI(MPI_Type_get_name(MPI_UB, name, &len));
    CHECK(strcmp(name, "MPI_UB") == 0, "MPI_UB's name is '%s'", name);
    CHECK(MPI_LB != MPI_UB && MPI_LB != MPI_DATATYPE_NULL,
          "two distinct markers");
}

static void one_struct_bounds(void)
{
    /* both markers: the C idiom for a struct's padding */
    expect_free(make_struct(3, (int[]){1, 1, 1}, (MPI_Aint[]){-4, 0, 20},
                            (MPI_Datatype[]){MPI_LB, MPI_INT, MPI_UB}),
                "{LB@-4, int@0, UB@20}", (struct bounds){4, -4, 24, 0, 4});
    /* an MPI_UB alone: lb from the data, no epsilon after the marker */
    expect_free(make_struct(2, (int[]){1, 1}, (MPI_Aint[]){0, 13},
                            (MPI_Datatype[]){MPI_DOUBLE, MPI_UB}),
                "{double@0, UB@13}", (struct bounds){8, 0, 13, 0, 8});
    expect_free(make_struct(2, (int[]){1, 1}, (MPI_Aint[]){-8, 0},
                            (MPI_Datatype[]){MPI_UB, MPI_INT}),
                "{UB@-8, int@0}", (struct bounds){4, 0, -8, 0, 4});
    /* an MPI_LB alone: ub at the data, plus the epsilon of the extent */
    expect_free(make_struct(2, (int[]){1, 1}, (MPI_Aint[]){-4, 0},
                            (MPI_Datatype[]){MPI_LB, MPI_DOUBLE}),
                "{LB@-4, double@0}", (struct bounds){8, -4, 16, 0, 8});
    expect_free(make_struct(2, (int[]){2, 1}, (MPI_Aint[]){0, 30},
                            (MPI_Datatype[]){MPI_LB, MPI_INT}),
                "{2 LB@0, int@30}", (struct bounds){4, 0, 36, 30, 4});
    expect_free(make_struct(2, (int[]){1, 1}, (MPI_Aint[]){100, 0},
                            (MPI_Datatype[]){MPI_LB, MPI_INT}),
                "{LB@100, int@0}", (struct bounds){4, 100, -96, 0, 4});
    /* several of one marker: the least MPI_LB, the greatest MPI_UB */
    expect_free(make_struct(5, (int[]){1, 1, 1, 1, 1},
                            (MPI_Aint[]){8, -2, 0, 40, 24},
                            (MPI_Datatype[]){MPI_LB, MPI_LB, MPI_SHORT,
                                             MPI_UB, MPI_UB}),
                "two of each", (struct bounds){2, -2, 42, 0, 2});
    /* markers and nothing else */
    expect_free(make_struct(1, (int[]){1}, (MPI_Aint[]){8},
                            (MPI_Datatype[]){MPI_UB}),
                "{UB@8}", (struct bounds){0, 0, 8, 0, 0});
}

/* A marked type in later constructors: copies laid by the marked extent,
   the markers carried along (sticky), erased by resized. */
static void replicated(void)
{
    MPI_Datatype iu = make_struct(2, (int[]){1, 1}, (MPI_Aint[]){0, 12},
                                  (MPI_Datatype[]){MPI_INT, MPI_UB});
    MPI_Datatype t;
    expect_mpi1(iu, "{int, UB@12}", (struct bounds){4, 0, 12, 0, 4});
    CHECK_MPI(MPI_Type_contiguous(2, iu, &t));
    expect_free(t, "contiguous(2, {int, UB@12})",
                (struct bounds){8, 0, 24, 0, 16});
    expect_free(make_struct(1, (int[]){3}, (MPI_Aint[]){0},
                            (MPI_Datatype[]){iu}),
                "struct of 3 {int, UB@12}", (struct bounds){12, 0, 36, 0, 28});
    /* a member inside the marked extent */
    expect_free(make_struct(2, (int[]){1, 1}, (MPI_Aint[]){0, 4},
                            (MPI_Datatype[]){iu, MPI_CHAR}),
                "{{int, UB@12}@0, char@4}", (struct bounds){5, 0, 12, 0, 5});
    /* a member beyond it does not move the marked ub (sticky) */
    expect_free(make_struct(2, (int[]){1, 1}, (MPI_Aint[]){0, 16},
                            (MPI_Datatype[]){iu, MPI_CHAR}),
                "{{int, UB@12}@0, char@16}", (struct bounds){5, 0, 12, 0, 17});
    CHECK_MPI(MPI_Type_vector(2, 1, 2, iu, &t));
    expect_free(t, "vector(2, 1, 2, {int, UB@12})",
                (struct bounds){8, 0, 36, 0, 28});
    CHECK_MPI(MPI_Type_hvector(2, 1, 100, iu, &t));
    expect_free(t, "hvector(2, 1, 100, {int, UB@12})",
                (struct bounds){8, 0, 112, 0, 104});
    CHECK_MPI(MPI_Type_create_resized(iu, -4, 8, &t));
    expect_free(t, "resized(-4, 8) of {int, UB@12}",
                (struct bounds){4, -4, 8, 0, 4});
    /* a marker beside a resized type: the least of the lb markers */
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 16, &t));
    expect_free(make_struct(2, (int[]){1, 1}, (MPI_Aint[]){-4, 0},
                            (MPI_Datatype[]){MPI_LB, t}),
                "{LB@-4, resized(int, 0, 16)}",
                (struct bounds){4, -4, 20, 0, 4});
    CHECK_MPI(MPI_Type_free(&t));
    /* the markers as oldtype of the other constructors */
    CHECK_MPI(MPI_Type_hindexed(2, (int[]){1, 1}, (MPI_Aint[]){-6, 10},
                                MPI_UB, &t));
    expect_free(t, "hindexed of MPI_UB at -6 and 10",
                (struct bounds){0, 0, 10, 0, 0});
    CHECK_MPI(MPI_Type_free(&iu));
}

/* Envelope and contents give the arguments back, markers included. */
static void decoded(void)
{
    MPI_Datatype t = make_struct(3, (int[]){1, 2, 1},
                                 (MPI_Aint[]){-8, 0, 24},
                                 (MPI_Datatype[]){MPI_LB, MPI_INT, MPI_UB});
    int ni, na, nt, combiner, ints[3];
    MPI_Aint addrs[3];
    MPI_Datatype types[3];
    CHECK_MPI(MPI_Type_get_envelope(t, &ni, &na, &nt, &combiner));
    CHECK(combiner == MPI_COMBINER_STRUCT && ni == 4 && na == 3 && nt == 3,
          "envelope: combiner %d ni %d na %d nt %d, expected STRUCT 4 3 3",
          combiner, ni, na, nt);
    int all_ints[4];
    CHECK_MPI(MPI_Type_get_contents(t, 4, 3, 3, all_ints, addrs, types));
    memcpy(ints, all_ints + 1, sizeof ints);
    CHECK(all_ints[0] == 3 && ints[0] == 1 && ints[1] == 2 && ints[2] == 1,
          "contents: the block lengths");
    CHECK(addrs[0] == -8 && addrs[1] == 0 && addrs[2] == 24,
          "contents: the displacements");
    CHECK(types[0] == MPI_LB && types[1] == MPI_INT && types[2] == MPI_UB,
          "contents: the types, markers included");
    CHECK_MPI(MPI_Type_free(&t));
}

/* Data moves as if the markers were not there: size, elements, pack,
   a reduction, a message of three padded elements. */
static void data(MPI_Comm comm, int rank, int size)
{
    /* {LB@-4, int@0, double@8, UB@24}: 12 bytes of data, extent 28 */
    MPI_Datatype t = make_struct(4, (int[]){1, 1, 1, 1},
                                 (MPI_Aint[]){-4, 0, 8, 24},
                                 (MPI_Datatype[]){MPI_LB, MPI_INT,
                                                  MPI_DOUBLE, MPI_UB});
    CHECK_MPI(MPI_Type_commit(&t));
    expect_mpi1(t, "{LB@-4, int@0, double@8, UB@24}",
                (struct bounds){12, -4, 28, 0, 16});
    enum { N = 3, STEP = 28 };
    char buf[4 + N * STEP], back[sizeof buf], packed[N * 12];
    memset(buf, 0, sizeof buf);
    for (int k = 0; k < N; k++) {
        int v = 100 + k;
        double d = 0.5 + k;
        memcpy(buf + 4 + k * STEP, &v, sizeof v);
        memcpy(buf + 4 + k * STEP + 8, &d, sizeof d);
    }
    /* buf + 4 is the origin: element k starts at lb = -4 from it */
    int psize = -1, pos = 0;
    CHECK_MPI(MPI_Pack_size(N, t, comm, &psize));
    CHECK(psize >= N * 12, "MPI_Pack_size %d < %d", psize, N * 12);
    CHECK_MPI(MPI_Pack(buf + 4, N, t, packed, sizeof packed, &pos, comm));
    CHECK(pos == N * 12, "MPI_Pack wrote %d bytes, expected %d", pos,
          N * 12);
    for (int k = 0; k < N; k++) {
        int v;
        double d;
        memcpy(&v, packed + k * 12, sizeof v);
        memcpy(&d, packed + k * 12 + 4, sizeof d);
        CHECK(v == 100 + k && d == 0.5 + k, "packed element %d: %d %g", k,
              v, d);
    }
    memset(back, 0x55, sizeof back);
    pos = 0;
    CHECK_MPI(MPI_Unpack(packed, sizeof packed, &pos, back + 4, N, t, comm));
    for (int k = 0; k < N; k++)
        CHECK(memcmp(back + 4 + k * STEP, buf + 4 + k * STEP, 4) == 0 &&
              memcmp(back + 12 + k * STEP, buf + 12 + k * STEP, 8) == 0,
              "unpacked element %d", k);
    CHECK((unsigned char)back[8] == 0x55 && (unsigned char)back[3] == 0x55,
          "unpack wrote the gaps");

    int peer = (rank + 1) % size, from = (rank + size - 1) % size;
    MPI_Status st;
    memset(back, 0, sizeof back);
    CHECK_MPI(MPI_Sendrecv(buf + 4, N, t, peer, 7, back + 4, N, t, from, 7,
                           comm, &st));
    expect_counts(&st, t, N, 2 * N, "a message of 3 marked elements");
    for (int k = 0; k < N; k++)
        CHECK(memcmp(back + 4 + k * STEP, buf + 4 + k * STEP, 4) == 0 &&
              memcmp(back + 12 + k * STEP, buf + 12 + k * STEP, 8) == 0,
              "received element %d", k);

    /* markers are no element: ints between them still reduce as ints */
    MPI_Datatype pi = make_struct(3, (int[]){1, 2, 1},
                                  (MPI_Aint[]){0, 0, 16},
                                  (MPI_Datatype[]){MPI_LB, MPI_INT, MPI_UB});
    CHECK_MPI(MPI_Type_commit(&pi));
    int in[8] = {1, 2, 0, 0, 3, 4, 0, 0}, io[8] = {10, 20, 9, 9, 30, 40, 9, 9};
    CHECK_MPI(MPI_Reduce_local(in, io, 2, pi, MPI_SUM));
    CHECK(io[0] == 11 && io[1] == 22 && io[4] == 33 && io[5] == 44 &&
          io[2] == 9 && io[6] == 9, "MPI_SUM over {LB, 2 int, UB@16}");
    CHECK_MPI(MPI_Type_free(&pi));
    CHECK_MPI(MPI_Type_free(&t));
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    markers_themselves();
    one_struct_bounds();
    replicated();
    decoded();
    data(MPI_COMM_WORLD, rank, size);
    MPI_Finalize();
    return 0;
}
