/* dt_f90_ext: shmpi's choices for MPI_Type_create_f90_*: INTEGER*16 for ranges 19..38, MPI_ERR_ARG for an integer range of MPI_UNDEFINED and a NULL newtype, one handle per (combiner, p, r) with MPI_UNDEFINED kept apart from 0, a name that says how the type was made, stable Fortran numbers, and the types in RMA accumulates. */
/* shmpi-test: np=1,2 timeout=30 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <stdint.h>

#define U MPI_UNDEFINED

static int rank, size;

static void size_is(MPI_Datatype t, int want, const char *what)
{
    int sz = -1;
    CHECK_MPI(MPI_Type_size(t, &sz));
    CHECK(sz == want, "%s: size %d, expected %d", what, sz, want);
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_Datatype t, u;

    /* __int128, shmpi's MPI_INTEGER16 */
    CHECK_MPI(MPI_Type_create_f90_integer(19, &t));
    size_is(t, 16, "integer range 19");
    CHECK_MPI(MPI_Type_create_f90_integer(38, &t));
    size_is(t, 16, "integer range 38");
    CHECK_CLASS(MPI_Type_create_f90_integer(U, &t), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Type_create_f90_integer(4, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Type_create_f90_real(6, 6, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Type_create_f90_complex(6, 6, NULL), MPI_ERR_ARG);

    /* one handle per (combiner, p, r) */
    CHECK_MPI(MPI_Type_create_f90_real(10, U, &t));
    CHECK_MPI(MPI_Type_create_f90_real(10, U, &u));
    CHECK(t == u, "two handles for MPI_Type_create_f90_real(10, U)");
    CHECK_MPI(MPI_Type_create_f90_real(10, 0, &u));
    CHECK(t != u, "(10, MPI_UNDEFINED) and (10, 0) share a handle");
    int ints[2];
    CHECK_MPI(MPI_Type_get_contents(t, 2, 0, 0, ints, NULL, NULL));
    CHECK(ints[0] == 10 && ints[1] == U, "contents %d %d", ints[0], ints[1]);
    CHECK_MPI(MPI_Type_create_f90_complex(10, U, &u));
    CHECK(t != u, "a real and a complex type share a handle");
    CHECK_MPI(MPI_Type_create_f90_integer(10, &u));
    CHECK(t != u, "a real and an integer type share a handle");

    char name[MPI_MAX_OBJECT_NAME];
    int len;
    CHECK_MPI(MPI_Type_get_name(t, name, &len));
    CHECK(strcmp(name, "MPI_Type_create_f90_real(10, MPI_UNDEFINED)") == 0,
          "name '%s'", name);
    CHECK_MPI(MPI_Type_get_name(u, name, &len));
    CHECK(strcmp(name, "MPI_Type_create_f90_integer(10)") == 0, "name '%s'",
          name);

    /* a Fortran number of its own, the same every time */
    MPI_Fint f = MPI_Type_c2f(t);
    CHECK(f != MPI_Type_c2f(MPI_REAL8) && MPI_Type_f2c(f) == t,
          "Fortran number %d", (int)f);
    CHECK_MPI(MPI_Type_create_f90_real(10, U, &u));
    CHECK(MPI_Type_c2f(u) == f, "the number changed");

    /* external32 sees the base type's data */
    double x = 1.0 / 3, y = 0;
    char e1[16], e2[16];
    MPI_Aint pos1 = 0, pos2 = 0;
    CHECK_MPI(MPI_Type_create_f90_real(15, 300, &u));
    CHECK_MPI(MPI_Pack_external("external32", &x, 1, u, e1, sizeof e1,
                                &pos1));
    CHECK_MPI(MPI_Pack_external("external32", &x, 1, MPI_REAL8, e2,
                                sizeof e2, &pos2));
    CHECK(pos1 == 8 && pos2 == 8 && memcmp(e1, e2, 8) == 0,
          "external32 of the f90 real differs from MPI_REAL8's");
    pos1 = 0;
    CHECK_MPI(MPI_Unpack_external("external32", e1, 8, &pos1, &y, 1, u));
    CHECK(y == x, "external32 round trip: %g", y);

    /* RMA: accumulate and fetch-and-op in the types, the target's memory
       typed by the base types */
    int64_t mem[2] = {0, 0};
    MPI_Win win;
    MPI_Datatype i8;
    CHECK_MPI(MPI_Type_create_f90_integer(12, &i8));
    CHECK_MPI(MPI_Win_create(mem, sizeof mem, sizeof(int64_t), MPI_INFO_NULL,
                             MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_fence(0, win));
    int64_t one = rank + 1, old = -1;
    CHECK_MPI(MPI_Accumulate(&one, 1, i8, 0, 0, 1, i8, MPI_SUM, win));
    CHECK_MPI(MPI_Fetch_and_op(&one, &old, i8, 0, 1, MPI_SUM, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    if (rank == 0)
        CHECK(mem[0] == (int64_t)size * (size + 1) / 2 && mem[1] == mem[0],
              "accumulated %lld and %lld", (long long)mem[0],
              (long long)mem[1]);
    CHECK(old >= 0 && old < (int64_t)size * (size + 1) / 2,
          "fetched %lld", (long long)old);
    CHECK_MPI(MPI_Win_free(&win));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
