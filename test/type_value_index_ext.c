/* type_value_index_ext: MPI_Type_get_value_index (MPI-4.1) gives each predefined MINLOC/MAXLOC pair type for its (value, index) types, MPI_DATATYPE_NULL for any other pair (swapped, derived, near misses), refuses invalid types and a NULL output, and the pair it gives works in MPI_MINLOC; Open MPI 4.1 lacks it. */
/* shmpi-test: np=1,2,4 timeout=30 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

static MPI_Datatype pair_of(MPI_Datatype v, MPI_Datatype i)
{
    MPI_Datatype p = MPI_BYTE; /* anything but the answers */
    CHECK_MPI(MPI_Type_get_value_index(v, i, &p));
    return p;
}

static void table(void)
{
    const struct { MPI_Datatype v, i, p; const char *name; } want[] = {
        {MPI_FLOAT, MPI_INT, MPI_FLOAT_INT, "MPI_FLOAT_INT"},
        {MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT, "MPI_DOUBLE_INT"},
        {MPI_LONG, MPI_INT, MPI_LONG_INT, "MPI_LONG_INT"},
        {MPI_INT, MPI_INT, MPI_2INT, "MPI_2INT"},
        {MPI_SHORT, MPI_INT, MPI_SHORT_INT, "MPI_SHORT_INT"},
        {MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT"},
        {MPI_REAL, MPI_REAL, MPI_2REAL, "MPI_2REAL"},
        {MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_2DOUBLE_PRECISION,
         "MPI_2DOUBLE_PRECISION"},
        {MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER, "MPI_2INTEGER"},
    };
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++)
        CHECK(pair_of(want[k].v, want[k].i) == want[k].p, "not %s",
              want[k].name);
    const MPI_Datatype none[][2] = {
        {MPI_INT, MPI_FLOAT},    {MPI_INT, MPI_DOUBLE},
        {MPI_FLOAT, MPI_LONG},   {MPI_DOUBLE, MPI_DOUBLE},
        {MPI_UNSIGNED, MPI_INT}, {MPI_LONG_LONG, MPI_INT},
        {MPI_CHAR, MPI_INT},     {MPI_INT32_T, MPI_INT},
        {MPI_REAL, MPI_INT},     {MPI_INTEGER, MPI_INT},
        {MPI_2INT, MPI_INT},     {MPI_FLOAT_INT, MPI_INT},
    };
    for (size_t k = 0; k < sizeof none / sizeof none[0]; k++)
        CHECK(pair_of(none[k][0], none[k][1]) == MPI_DATATYPE_NULL,
              "a pair type for near miss %zu", k);
    /* a derived type, even a dup of MPI_FLOAT, has none */
    MPI_Datatype dup;
    CHECK_MPI(MPI_Type_dup(MPI_FLOAT, &dup));
    CHECK_MPI(MPI_Type_commit(&dup));
    CHECK(pair_of(dup, MPI_INT) == MPI_DATATYPE_NULL, "dup of MPI_FLOAT");
    CHECK(pair_of(MPI_FLOAT, dup) == MPI_DATATYPE_NULL, "dup as index");
    CHECK_MPI(MPI_Type_free(&dup));
}

static void errors(void)
{
    MPI_Datatype p;
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_CLASS(MPI_Type_get_value_index(MPI_DATATYPE_NULL, MPI_INT, &p),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Type_get_value_index(MPI_FLOAT, MPI_DATATYPE_NULL, &p),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Type_get_value_index(MPI_FLOAT, MPI_INT, NULL),
                MPI_ERR_ARG);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

/* The type it names is the one MPI_MINLOC takes. */
static void use(int rank, int size)
{
    struct { double v; int i; } in = {(double)((rank * 7) % size), rank},
                                 out;
    MPI_Datatype p = pair_of(MPI_DOUBLE, MPI_INT);
    CHECK_MPI(MPI_Allreduce(&in, &out, 1, p, MPI_MINLOC, MPI_COMM_WORLD));
    CHECK(out.v == 0 && out.i == 0, "MINLOC gave (%g, %d)", out.v, out.i);
}

int main(int argc, char **argv)
{
    int rank, size;
    CHECK_MPI(MPI_Init(&argc, &argv));
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    table();
    errors();
    use(rank, size);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
