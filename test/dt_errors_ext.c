/* dt_errors_ext: datatype errors whose class shmpi chooses where the standard names none or Open MPI 4.1 disagrees (get_contents of a named type or with short arrays, keyvals that never were, ndims 0, MPI_Pack_size with a negative count, pack positions outside the buffer), and get_contents with arrays larger than needed. */
/* shmpi-test: np=1 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Open MPI 4.1 answers the first two with MPI_ERR_INTERN, accepts ndims 0,
 * a negative MPI_Pack_size count and a negative pack position, and
 * crashes when get_contents is given larger maxima than the envelope's
 * (which 4.1.13 allows): hence a test of its own, run under shmpi only.
 */
#include "check.h"

static void get_contents(void)
{
    int ints[8];
    MPI_Aint addrs[8];
    MPI_Datatype types[8], v, d;
    /* 4.1.13: erroneous on a named type; the datatype is what is wrong */
    CHECK_CLASS(MPI_Type_get_contents(MPI_INT, 8, 8, 8, ints, addrs, types),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Type_get_contents(MPI_2INT, 8, 8, 8, ints, addrs, types),
                MPI_ERR_TYPE);
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &v));
    /* maxima below the envelope's counts */
    CHECK_CLASS(MPI_Type_get_contents(v, 2, 0, 1, ints, addrs, types),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Type_get_contents(v, 3, 0, 0, ints, addrs, types),
                MPI_ERR_ARG);
    /* maxima above them are fine */
    CHECK_MPI(MPI_Type_get_contents(v, 8, 8, 8, ints, addrs, types));
    CHECK(ints[0] == 2 && ints[1] == 1 && ints[2] == 2 && types[0] == MPI_INT,
          "vector decoded as %d %d %d", ints[0], ints[1], ints[2]);
    CHECK_MPI(MPI_Type_dup(MPI_INT, &d));
    CHECK_MPI(MPI_Type_get_contents(d, 8, 8, 8, ints, addrs, types));
    CHECK(types[0] == MPI_INT, "dup(MPI_INT) decoded to another type");
    CHECK_MPI(MPI_Type_free(&d));
    CHECK_MPI(MPI_Type_free(&v));
}

/* MPI_ERR_KEYVAL is the standard's class for a keyval that never was;
   Open MPI 4.1 gives MPI_ERR_OTHER */
static void bad_keyvals(void)
{
    int k = 12345;
    CHECK_CLASS(MPI_Type_set_attr(MPI_INT, k, NULL), MPI_ERR_KEYVAL);
    CHECK_CLASS(MPI_Type_free_keyval(&k), MPI_ERR_KEYVAL);
}

static void zero_dims(void)
{
    MPI_Datatype t;
    int one = 1, zero = 0, block = MPI_DISTRIBUTE_BLOCK,
        dflt = MPI_DISTRIBUTE_DFLT_DARG;
    /* ndims is a positive integer (4.1.3, 4.1.4) */
    CHECK_CLASS(MPI_Type_create_subarray(0, &one, &one, &zero, MPI_ORDER_C,
                                         MPI_INT, &t),
                MPI_ERR_DIMS);
    CHECK_CLASS(MPI_Type_create_darray(1, 0, 0, &one, &block, &dflt, &one,
                                       MPI_ORDER_C, MPI_INT, &t),
                MPI_ERR_DIMS);
}

static void pack_args(void)
{
    int size, x[2] = {1, 2}, pos;
    char buf[64];
    CHECK_CLASS(MPI_Pack_size(-1, MPI_INT, MPI_COMM_WORLD, &size),
                MPI_ERR_COUNT);
    /* a position outside the buffer is a bad argument, not truncation
       (Open MPI: success for -1, MPI_ERR_TRUNCATE past the end) */
    pos = -1;
    CHECK_CLASS(MPI_Pack(x, 2, MPI_INT, buf, sizeof buf, &pos,
                         MPI_COMM_WORLD),
                MPI_ERR_ARG);
    pos = 65;
    CHECK_CLASS(MPI_Pack(x, 0, MPI_INT, buf, sizeof buf, &pos,
                         MPI_COMM_WORLD),
                MPI_ERR_ARG);
    pos = 65;
    CHECK_CLASS(MPI_Unpack(buf, sizeof buf, &pos, x, 0, MPI_INT,
                           MPI_COMM_WORLD),
                MPI_ERR_ARG);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    get_contents();
    bad_keyvals();
    zero_dims();
    pack_args();
    MPI_Finalize();
    return 0;
}
