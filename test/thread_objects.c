/* thread_objects: with MPI_THREAD_MULTIPLE asked for, four threads per rank at once make, commit, query, dup, pack with and free derived datatypes, derive, compare and free groups (MPI_COMM_WORLD's among them), create, apply and free reduction ops, and take and drop references to a datatype and a group main made and frees at the end; every result is checked. */
/* shmpi-test: np=1,2 timeout=240 threads */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <pthread.h>
#include <string.h>

/* The threads call MPI at the same time: the test asks for
   MPI_THREAD_MULTIPLE and requires it (shmpi, Open MPI and MPICH
   provide it); what it touches is object lifetimes (reference counts,
   lazily built data, process state of datatypes, groups and ops).  Built
   with ThreadSanitizer (make check-tsan) it also checks that the library
   hands that state between threads only through visible
   synchronization. */
#define THREADS 4
#define ITERS 300

static int rank, size;
static MPI_Datatype shared_type; /* vector(3, 2, 4, MPI_INT), committed */
static MPI_Comm dupcomm;         /* its group is the shared one */
static MPI_Group shared_group;   /* dup's group, world ranks reversed */

/* The packed image of vector(3, 2, 4, MPI_INT) over src[i] = i + base. */
static void check_vector_pack(MPI_Datatype t, int base, const char *what)
{
    int src[12], dst[12], packed[6], pos = 0;
    for (int i = 0; i < 12; i++) {
        src[i] = i + base;
        dst[i] = -1;
    }
    CHECK_MPI(MPI_Pack(src, 1, t, packed, sizeof packed, &pos,
                       MPI_COMM_SELF));
    CHECK(pos == (int)sizeof packed, "%s: packed %d bytes", what, pos);
    static const int at[6] = {0, 1, 4, 5, 8, 9};
    for (int i = 0; i < 6; i++)
        CHECK(packed[i] == at[i] + base, "%s: packed[%d] = %d, not %d", what,
              i, packed[i], at[i] + base);
    pos = 0;
    CHECK_MPI(MPI_Unpack(packed, sizeof packed, &pos, dst, 1, t,
                         MPI_COMM_SELF));
    for (int i = 0; i < 12; i++) {
        int want = (i % 4) < 2 ? i + base : -1;
        CHECK(dst[i] == want, "%s: unpacked[%d] = %d, not %d", what, i,
              dst[i], want);
    }
}

static void check_size_extent(MPI_Datatype t, int want_size,
                              MPI_Aint want_extent, const char *what)
{
    int sz;
    MPI_Aint lb, extent;
    CHECK_MPI(MPI_Type_size(t, &sz));
    CHECK_MPI(MPI_Type_get_extent(t, &lb, &extent));
    CHECK(sz == want_size, "%s: size %d, not %d", what, sz, want_size);
    CHECK(lb == 0 && extent == want_extent, "%s: lb %ld extent %ld, not 0 %ld",
          what, (long)lb, (long)extent, (long)want_extent);
}

/* Derived types of several kinds, each made, committed, queried, used
   and freed by this thread alone. */
static void own_types(int id, int it)
{
    MPI_Datatype contig, vec, idx, st, dupd, resized;
    CHECK_MPI(MPI_Type_contiguous(4, MPI_INT, &contig));
    CHECK_MPI(MPI_Type_vector(3, 2, 4, MPI_INT, &vec));
    int blens[2] = {1, 2}, disps[2] = {3, 0};
    CHECK_MPI(MPI_Type_indexed(2, blens, disps, MPI_DOUBLE, &idx));
    int sblens[2] = {1, 1};
    MPI_Aint sdisps[2] = {0, 8};
    MPI_Datatype stypes[2] = {MPI_INT, MPI_DOUBLE};
    CHECK_MPI(MPI_Type_create_struct(2, sblens, sdisps, stypes, &st));
    CHECK_MPI(MPI_Type_dup(vec, &dupd));
    CHECK_MPI(MPI_Type_create_resized(contig, 0, 32, &resized));
    MPI_Datatype all[] = {contig, vec, idx, st, dupd, resized};
    for (int i = 0; i < 6; i++)
        CHECK_MPI(MPI_Type_commit(&all[i]));
    check_size_extent(contig, 16, 16, "contiguous");
    check_size_extent(vec, 24, 40, "vector");
    check_size_extent(idx, 24, 32, "indexed");
    check_size_extent(st, 12, 16, "struct");
    check_size_extent(dupd, 24, 40, "dup");
    check_size_extent(resized, 16, 32, "resized");

    int ni, na, nd, comb;
    CHECK_MPI(MPI_Type_get_envelope(vec, &ni, &na, &nd, &comb));
    CHECK(comb == MPI_COMBINER_VECTOR && ni == 3 && na == 0 && nd == 1,
          "vector envelope %d %d %d %d", ni, na, nd, comb);
    int ints[3];
    MPI_Datatype inner;
    MPI_Aint no_addrs[1];
    CHECK_MPI(MPI_Type_get_contents(vec, 3, 0, 1, ints, no_addrs, &inner));
    CHECK(ints[0] == 3 && ints[1] == 2 && ints[2] == 4 && inner == MPI_INT,
          "vector contents %d %d %d", ints[0], ints[1], ints[2]);
    CHECK_MPI(MPI_Type_get_envelope(st, &ni, &na, &nd, &comb));
    CHECK(comb == MPI_COMBINER_STRUCT && ni == 3 && na == 2 && nd == 2,
          "struct envelope %d %d %d %d", ni, na, nd, comb);
    int sints[3];
    MPI_Aint saddrs[2];
    MPI_Datatype stys[2];
    CHECK_MPI(MPI_Type_get_contents(st, 3, 2, 2, sints, saddrs, stys));
    CHECK(sints[0] == 2 && sints[1] == 1 && sints[2] == 1 &&
              saddrs[0] == 0 && saddrs[1] == 8 && stys[0] == MPI_INT &&
              stys[1] == MPI_DOUBLE,
          "struct contents");

    check_vector_pack(vec, id * 1000 + it, "own vector");
    check_vector_pack(dupd, id * 1000 + it + 1, "own dup");
    for (int i = 0; i < 6; i++) {
        CHECK_MPI(MPI_Type_free(&all[i]));
        CHECK(all[i] == MPI_DATATYPE_NULL, "free left a handle");
    }
}

/* References to the shared type, taken and dropped: its dup and a type
   built on it hold one each, and get_contents of the dup hands out
   another. */
static void shared_type_refs(int id, int it)
{
    MPI_Datatype d, two, back;
    CHECK_MPI(MPI_Type_dup(shared_type, &d));
    CHECK_MPI(MPI_Type_contiguous(2, shared_type, &two));
    CHECK_MPI(MPI_Type_commit(&two));
    int ni, na, nd, comb;
    CHECK_MPI(MPI_Type_get_envelope(d, &ni, &na, &nd, &comb));
    CHECK(comb == MPI_COMBINER_DUP && ni == 0 && na == 0 && nd == 1,
          "dup envelope %d %d %d %d", ni, na, nd, comb);
    int no_ints[1];
    MPI_Aint no_addrs[1];
    CHECK_MPI(MPI_Type_get_contents(d, 0, 0, 1, no_ints, no_addrs, &back));
    CHECK_MPI(MPI_Type_get_envelope(back, &ni, &na, &nd, &comb));
    CHECK(comb == MPI_COMBINER_VECTOR, "dup's contents: combiner %d", comb);
    check_size_extent(two, 48, 80, "contiguous of the shared type");
    check_vector_pack(shared_type, id * 1000 + it, "shared vector");
    check_vector_pack(d, id * 1000 + it + 2, "dup of the shared vector");
    CHECK_MPI(MPI_Type_free(&back));
    CHECK_MPI(MPI_Type_free(&two));
    CHECK_MPI(MPI_Type_free(&d));
}

static void groups(void)
{
    MPI_Group world, mine, ex, un, in;
    /* MPI_COMM_WORLD's group: made the first time any thread asks */
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
    int gs, gr;
    CHECK_MPI(MPI_Group_size(world, &gs));
    CHECK_MPI(MPI_Group_rank(world, &gr));
    CHECK(gs == size && gr == rank, "world group: size %d rank %d", gs, gr);

    /* a reference to the shared group, through the communicator */
    CHECK_MPI(MPI_Comm_group(dupcomm, &mine));
    int r, res;
    CHECK_MPI(MPI_Group_compare(world, mine, &res));
    CHECK(res == MPI_IDENT, "world vs dup's group: %d", res);

    /* ranks into the shared (reversed) group: its index is built by
       whichever thread gets there first */
    int from[64], to[64];
    for (int i = 0; i < size; i++)
        from[i] = i;
    CHECK_MPI(MPI_Group_translate_ranks(world, size, from, shared_group, to));
    for (int i = 0; i < size; i++)
        CHECK(to[i] == size - 1 - i, "translate %d -> %d", i, to[i]);
    CHECK_MPI(MPI_Group_compare(world, shared_group, &res));
    CHECK(res == (size == 1 ? MPI_IDENT : MPI_SIMILAR),
          "world vs reversed: %d", res);

    r = 0;
    CHECK_MPI(MPI_Group_excl(world, 1, &r, &ex));
    CHECK_MPI(MPI_Group_size(ex, &gs));
    CHECK(gs == size - 1, "excl: size %d", gs);
    CHECK_MPI(MPI_Group_union(ex, shared_group, &un));
    CHECK_MPI(MPI_Group_size(un, &gs));
    CHECK(gs == size, "union: size %d", gs);
    CHECK_MPI(MPI_Group_intersection(shared_group, ex, &in));
    CHECK_MPI(MPI_Group_size(in, &gs));
    CHECK(gs == size - 1, "intersection: size %d", gs);
    CHECK_MPI(MPI_Group_compare(in, ex, &res));
    CHECK(res == (size <= 2 ? MPI_IDENT : MPI_SIMILAR),
          "intersection vs excl: %d", res);
    MPI_Group inc;
    int last = size - 1;
    CHECK_MPI(MPI_Group_incl(shared_group, 1, &last, &inc));
    CHECK_MPI(MPI_Group_translate_ranks(inc, 1, &r, world, to));
    CHECK(to[0] == 0, "incl of the reversed group's last: world %d", to[0]);

    MPI_Group *all[] = {&inc, &in, &un, &ex, &mine, &world};
    for (int i = 0; i < 6; i++) {
        CHECK_MPI(MPI_Group_free(all[i]));
        CHECK(*all[i] == MPI_GROUP_NULL, "group free left a handle");
    }
}

static void add_twice(void *in, void *inout, int *len, MPI_Datatype *t)
{
    (void)t;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += 2 * ((int *)in)[i];
}

static void ops(int it)
{
    MPI_Op op;
    CHECK_MPI(MPI_Op_create(add_twice, it & 1, &op));
    int commute;
    CHECK_MPI(MPI_Op_commutative(op, &commute));
    CHECK(commute == (it & 1), "commutative %d", commute);
    int in[4] = {1, 2, 3, it}, inout[4] = {10, 20, 30, 40};
    CHECK_MPI(MPI_Reduce_local(in, inout, 4, MPI_INT, op));
    CHECK(inout[0] == 12 && inout[1] == 24 && inout[2] == 36 &&
              inout[3] == 40 + 2 * it,
          "user op: %d %d %d %d", inout[0], inout[1], inout[2], inout[3]);
    CHECK_MPI(MPI_Op_free(&op));
    CHECK(op == MPI_OP_NULL, "op free left a handle");
    /* a predefined op on a predefined type: their kernel tables */
    long a[2] = {it, 5}, b[2] = {1, 7};
    CHECK_MPI(MPI_Reduce_local(a, b, 2, MPI_LONG, MPI_MAX));
    CHECK(b[0] == (it > 1 ? it : 1) && b[1] == 7, "MPI_MAX: %ld %ld", b[0],
          b[1]);
}

static void *work(void *arg)
{
    int id = *(int *)arg;
    for (int it = 0; it < ITERS; it++) {
        own_types(id, it);
        shared_type_refs(id, it);
        groups();
        ops(it);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK(provided == MPI_THREAD_MULTIPLE,
          "MPI_Init_thread(MPI_THREAD_MULTIPLE) provided only %d", provided);
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(size <= 64, "at most 64 ranks");

    CHECK_MPI(MPI_Type_vector(3, 2, 4, MPI_INT, &shared_type));
    CHECK_MPI(MPI_Type_commit(&shared_type));
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dupcomm));
    MPI_Group dg;
    int rev[64];
    for (int i = 0; i < size; i++)
        rev[i] = size - 1 - i;
    CHECK_MPI(MPI_Comm_group(dupcomm, &dg));
    CHECK_MPI(MPI_Group_incl(dg, size, rev, &shared_group));
    CHECK_MPI(MPI_Group_free(&dg));

    pthread_t t[THREADS];
    int ids[THREADS];
    for (int i = 0; i < THREADS; i++) {
        ids[i] = i;
        CHECK(pthread_create(&t[i], NULL, work, &ids[i]) == 0,
              "pthread_create");
    }
    for (int i = 0; i < THREADS; i++)
        CHECK(pthread_join(t[i], NULL) == 0, "pthread_join");

    /* every reference the threads took is gone, and only those: the
       shared objects still work, and go with main's frees */
    check_vector_pack(shared_type, 7, "shared vector after the threads");
    int gs;
    CHECK_MPI(MPI_Group_size(shared_group, &gs));
    CHECK(gs == size, "shared group size %d", gs);
    CHECK_MPI(MPI_Type_free(&shared_type));
    CHECK_MPI(MPI_Group_free(&shared_group));
    CHECK_MPI(MPI_Comm_free(&dupcomm));
    CHECK_MPI(MPI_Finalize());
    if (rank == 0)
        printf("thread_objects: %d threads x %d rounds ok\n", THREADS, ITERS);
    return 0;
}
