/* dt_errors: bad datatype arguments under MPI_ERRORS_RETURN give the right error class (negative counts, negative block lengths, MPI_DATATYPE_NULL, uncommitted types in communication and MPI_Pack, freeing a predefined type, bad subarray and darray arguments, truncation) and leave MPI usable. */
/* shmpi-test: np=1 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The classes here are the ones the standard names (MPI_ERR_COUNT for
 * counts, MPI_ERR_TYPE for datatypes, MPI_ERR_TRUNCATE for data that does
 * not fit) or, where it names none, the one every implementation we know
 * agrees on (MPI_ERR_ARG for other bad arguments).  Checks whose class
 * Open MPI gets differently are in dt_errors_ext.c.
 */
#include "check.h"

static MPI_Comm comm;

static void constructor_counts(void)
{
    MPI_Datatype t;
    int bl[2] = {1, 1}, d[2] = {0, 4};
    MPI_Aint ad[2] = {0, 8};
    MPI_Datatype ty[2] = {MPI_INT, MPI_DOUBLE};
    CHECK_CLASS(MPI_Type_contiguous(-1, MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Type_vector(-1, 1, 1, MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Type_create_hvector(-1, 1, 8, MPI_INT, &t),
                MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Type_indexed(-1, bl, d, MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Type_create_hindexed(-1, bl, ad, MPI_INT, &t),
                MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Type_create_indexed_block(-1, 1, d, MPI_INT, &t),
                MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Type_create_hindexed_block(-1, 1, ad, MPI_INT, &t),
                MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Type_create_struct(-1, bl, ad, ty, &t), MPI_ERR_COUNT);
}

static void constructor_blocklengths(void)
{
    MPI_Datatype t;
    int bad[2] = {1, -1}, d[2] = {0, 4};
    MPI_Aint ad[2] = {0, 8};
    MPI_Datatype ty[2] = {MPI_INT, MPI_DOUBLE};
    CHECK_CLASS(MPI_Type_vector(2, -1, 1, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Type_create_hvector(2, -1, 8, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Type_indexed(2, bad, d, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Type_create_hindexed(2, bad, ad, MPI_INT, &t),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Type_create_indexed_block(2, -1, d, MPI_INT, &t),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Type_create_hindexed_block(2, -1, ad, MPI_INT, &t),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Type_create_struct(2, bad, ad, ty, &t), MPI_ERR_ARG);
}

static void null_types(void)
{
    MPI_Datatype t, null = MPI_DATATYPE_NULL;
    int one = 1, zero = 0, size;
    MPI_Aint a0 = 0, lb, ext;
    MPI_Count c, c2;
    MPI_Datatype with_null[2] = {MPI_INT, MPI_DATATYPE_NULL};
    int bl[2] = {1, 1};
    MPI_Aint ad[2] = {0, 8};
    CHECK_CLASS(MPI_Type_contiguous(1, null, &t), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Type_vector(1, 1, 1, null, &t), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Type_create_hvector(1, 1, 1, null, &t), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Type_indexed(1, &one, &zero, null, &t), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Type_create_hindexed(1, &one, &a0, null, &t),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Type_create_indexed_block(1, 1, &zero, null, &t),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Type_create_hindexed_block(1, 1, &a0, null, &t),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Type_create_struct(2, bl, ad, with_null, &t),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Type_create_resized(null, 0, 4, &t), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Type_dup(null, &t), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Type_create_subarray(1, &one, &one, &zero, MPI_ORDER_C,
                                         null, &t),
                MPI_ERR_TYPE);
    t = MPI_DATATYPE_NULL;
    CHECK_CLASS(MPI_Type_commit(&t), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Type_free(&t), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Type_size(null, &size), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Type_size_x(null, &c), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Type_get_extent(null, &lb, &ext), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Type_get_extent_x(null, &c, &c2), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Type_get_true_extent(null, &lb, &ext), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Type_get_true_extent_x(null, &c, &c2), MPI_ERR_TYPE);
    int ni, na, nd, combiner;
    CHECK_CLASS(MPI_Type_get_envelope(null, &ni, &na, &nd, &combiner),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Pack_size(1, null, comm, &size), MPI_ERR_TYPE);

    int x[4] = {0}, pos = 0;
    char buf[64];
    CHECK_CLASS(MPI_Send(x, 1, null, 0, 0, comm), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Pack(x, 1, null, buf, sizeof buf, &pos, comm),
                MPI_ERR_TYPE);
    pos = 0;
    CHECK_CLASS(MPI_Unpack(buf, sizeof buf, &pos, x, 1, null, comm),
                MPI_ERR_TYPE);
    MPI_Status st;
    CHECK_MPI(MPI_Sendrecv(x, 1, MPI_INT, 0, 1, buf, 4, MPI_INT, 0, 1, comm,
                           &st));
    CHECK_CLASS(MPI_Get_count(&st, null, &size), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Get_elements(&st, null, &size), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Get_elements_x(&st, null, &c), MPI_ERR_TYPE);
}

static void free_predefined(void)
{
    MPI_Datatype t = MPI_INT;
    CHECK_CLASS(MPI_Type_free(&t), MPI_ERR_TYPE);
    t = MPI_DOUBLE_INT;
    CHECK_CLASS(MPI_Type_free(&t), MPI_ERR_TYPE);
    /* a dup of one is derived and may be freed */
    CHECK_MPI(MPI_Type_dup(MPI_INT, &t));
    CHECK_MPI(MPI_Type_free(&t));
    CHECK(t == MPI_DATATYPE_NULL, "MPI_Type_free left the handle set");
    /* the predefined type still works */
    int x = 5, y = 0;
    CHECK_MPI(MPI_Sendrecv(&x, 1, MPI_INT, 0, 2, &y, 1, MPI_INT, 0, 2, comm,
                           MPI_STATUS_IGNORE));
    CHECK(y == 5, "MPI_INT broken after a failed MPI_Type_free");
}

/* The communication and packing calls refuse an uncommitted type. */
static void uncommitted(void)
{
    MPI_Datatype u;
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &u));
    int x[8] = {0}, y[8], pos = 0;
    char buf[256];
    MPI_Request r;
    MPI_Status st;
    CHECK_CLASS(MPI_Send(x, 1, u, 0, 3, comm), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Ssend(x, 1, u, 0, 3, comm), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Isend(x, 1, u, 0, 3, comm, &r), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Recv(y, 1, u, 0, 3, comm, &st), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Irecv(y, 1, u, 0, 3, comm, &r), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Sendrecv(x, 1, u, 0, 3, y, 8, MPI_INT, 0, 3, comm, &st),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Sendrecv(x, 1, MPI_INT, 0, 3, y, 1, u, 0, 3, comm, &st),
                MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Send_init(x, 1, u, 0, 3, comm, &r), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Recv_init(y, 1, u, 0, 3, comm, &r), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Pack(x, 1, u, buf, sizeof buf, &pos, comm), MPI_ERR_TYPE);
    pos = 0;
    CHECK_CLASS(MPI_Unpack(buf, sizeof buf, &pos, y, 1, u, comm),
                MPI_ERR_TYPE);
    /* nothing was sent by the failed calls: once committed, the type
       carries exactly one message */
    CHECK_MPI(MPI_Type_commit(&u));
    x[0] = 10;
    x[2] = 12;
    y[0] = y[1] = y[2] = -1;
    CHECK_MPI(MPI_Sendrecv(x, 1, u, 0, 3, y, 1, u, 0, 3, comm, &st));
    CHECK(y[0] == 10 && y[1] == -1 && y[2] == 12, "committed vector: %d %d %d",
          y[0], y[1], y[2]);
    int flag;
    CHECK_MPI(MPI_Iprobe(0, 3, comm, &flag, &st));
    CHECK(!flag, "a failed send left a message behind");
    CHECK_MPI(MPI_Type_free(&u));
}

static void negative_counts(void)
{
    MPI_Datatype v;
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &v));
    CHECK_MPI(MPI_Type_commit(&v));
    int x[8] = {0}, pos = 0;
    char buf[256];
    MPI_Request r;
    CHECK_CLASS(MPI_Send(x, -1, v, 0, 4, comm), MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Isend(x, -1, v, 0, 4, comm, &r), MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Recv(x, -1, v, 0, 4, comm, MPI_STATUS_IGNORE),
                MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Pack(x, -1, v, buf, sizeof buf, &pos, comm),
                MPI_ERR_COUNT);
    pos = 0;
    CHECK_CLASS(MPI_Unpack(buf, sizeof buf, &pos, x, -1, v, comm),
                MPI_ERR_COUNT);
    CHECK_MPI(MPI_Type_free(&v));
}

static void subarray_args(void)
{
    MPI_Datatype t;
    int sizes[2] = {4, 4}, sub[2] = {2, 2}, starts[2] = {0, 0};
    CHECK_CLASS(MPI_Type_create_subarray(2, sizes, sub, starts, 7, MPI_INT,
                                         &t),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Type_create_subarray(2, sizes, (int[]){5, 2}, starts,
                                         MPI_ORDER_C, MPI_INT, &t),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Type_create_subarray(2, sizes, (int[]){2, 0}, starts,
                                         MPI_ORDER_FORTRAN, MPI_INT, &t),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Type_create_subarray(2, sizes, sub, (int[]){3, 0},
                                         MPI_ORDER_C, MPI_INT, &t),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Type_create_subarray(2, sizes, sub, (int[]){0, -1},
                                         MPI_ORDER_C, MPI_INT, &t),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Type_create_subarray(2, (int[]){0, 4}, sub, starts,
                                         MPI_ORDER_C, MPI_INT, &t),
                MPI_ERR_ARG);
    /* the edge that is allowed: a subarray reaching the last element */
    CHECK_MPI(MPI_Type_create_subarray(2, sizes, sub, (int[]){2, 2},
                                       MPI_ORDER_C, MPI_INT, &t));
    CHECK_MPI(MPI_Type_free(&t));
}

static void darray_args(void)
{
    MPI_Datatype t;
    int gsize = 4, block = MPI_DISTRIBUTE_BLOCK,
        dflt = MPI_DISTRIBUTE_DFLT_DARG, two = 2, ten = 10;
    /* size is not the product of the process grid */
    CHECK_CLASS(MPI_Type_create_darray(3, 0, 1, &gsize, &block, &dflt, &two,
                                       MPI_ORDER_C, MPI_INT, &t),
                MPI_ERR_ARG);
    /* rank outside [0, size) */
    CHECK_CLASS(MPI_Type_create_darray(2, 2, 1, &gsize, &block, &dflt, &two,
                                       MPI_ORDER_C, MPI_INT, &t),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Type_create_darray(2, 0, 1, &gsize, &block, &dflt, &two,
                                       9, MPI_INT, &t),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Type_create_darray(2, 0, 1, &gsize, (int[]){7}, &dflt,
                                       &two, MPI_ORDER_C, MPI_INT, &t),
                MPI_ERR_ARG);
    /* a block of 2 cannot spread 10 elements over 2 processes */
    CHECK_CLASS(MPI_Type_create_darray(2, 0, 1, &ten, &block, &two, &two,
                                       MPI_ORDER_C, MPI_INT, &t),
                MPI_ERR_ARG);
    CHECK_CLASS(MPI_Type_create_darray(2, 0, 1, &gsize, &block, &dflt, &two,
                                       MPI_ORDER_C, MPI_DATATYPE_NULL, &t),
                MPI_ERR_TYPE);
}

/* Data that does not fit: a receive and a pack. */
static void truncation(void)
{
    MPI_Datatype v;
    CHECK_MPI(MPI_Type_vector(2, 1, 3, MPI_INT, &v));
    CHECK_MPI(MPI_Type_commit(&v));
    int x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, y[8], pos = 0;
    char buf[64];
    MPI_Request r;
    CHECK_MPI(MPI_Isend(x, 3, MPI_INT, 0, 5, comm, &r));
    CHECK_CLASS(MPI_Recv(y, 1, v, 0, 5, comm, MPI_STATUS_IGNORE),
                MPI_ERR_TRUNCATE);
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK_CLASS(MPI_Pack(x, 1, v, buf, 4, &pos, comm), MPI_ERR_TRUNCATE);
    pos = 60;
    CHECK_CLASS(MPI_Pack(x, 1, v, buf, sizeof buf, &pos, comm),
                MPI_ERR_TRUNCATE);
    CHECK_MPI(MPI_Type_free(&v));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    comm = MPI_COMM_WORLD;
    /* errors outside any communicator go to MPI_COMM_WORLD's handler
       (MPI-3.1 8.3); MPI-4 moves them to MPI_COMM_SELF's */
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    constructor_counts();
    constructor_blocklengths();
    null_types();
    free_predefined();
    uncommitted();
    negative_counts();
    subarray_args();
    darray_args();
    truncation();
    MPI_Finalize();
    return 0;
}
