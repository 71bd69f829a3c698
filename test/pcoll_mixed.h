/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pcoll_mixed.h - what pcoll_mixed_ext and pcoll_mixed_threads_ext share:
 * mixed(comm, id, rounds) starts persistent Allreduces of a few bytes
 * (double MPI_SUM into another buffer; two ints MPI_MAX in place; a
 * user-defined op; 32 bytes, a size that takes messages) with values
 * that change each round, and between MPI_Start and the wait calls other
 * collectives on the same communicator - blocking and nonblocking, a
 * second persistent one started on top, completed in either order - and
 * checks every result exactly.  After check.h.
 */
#ifndef SHMPI_TEST_PCOLL_MIXED_H
#define SHMPI_TEST_PCOLL_MIXED_H

/* a user-defined op, associative but not commutative: each pair of long
   longs (m, c) is the map x -> m x + c, and inout = in after inout
   (in o inout, the order MPI gives the two arguments) */
static void compose(void *in, void *inout, int *len, MPI_Datatype *t)
{
    (void)t;
    long long *a = in, *b = inout;
    for (int i = 0; i + 1 < *len; i += 2) {
        long long m = a[i] * b[i], c = a[i] * b[i + 1] + a[i + 1];
        b[i] = m;
        b[i + 1] = c;
    }
}

static double dval(int r, int round)
{
    return 1000.0 * r + round;
}

static void uval(int r, int round, long long *mc)
{
    mc[0] = r % 3 + 1;
    mc[1] = r + round % 5;
}

/* x0 o x1 o ... o x(n-1), combined in rank order */
static void ufold(int size, int round, long long *want)
{
    uval(size - 1, round, want);
    for (int r = size - 2; r >= 0; r--) {
        long long x[2];
        int two = 2;
        uval(r, round, x);
        compose(x, want, &two, NULL);
    }
}

/* the buffers of the start freed while it runs, one per id (< 8) */
static double freed_x[8], freed_sum[8];

static void mixed(MPI_Comm comm, int id, int rounds)
{
    int rank, size;
    CHECK_MPI(MPI_Comm_rank(comm, &rank));
    CHECK_MPI(MPI_Comm_size(comm, &size));
    double dx = 0, dsum = 0;
    int ip[2];
    long long ux[2], ures[2], uwant[2];
    double big[4], bigsum[4];
    MPI_Op op;
    CHECK_MPI(MPI_Op_create(compose, 0, &op));
    MPI_Request a, b, u, g;
    CHECK_MPI(MPI_Allreduce_init(&dx, &dsum, 1, MPI_DOUBLE, MPI_SUM, comm,
                                 MPI_INFO_NULL, &a));
    CHECK_MPI(MPI_Allreduce_init(MPI_IN_PLACE, ip, 2, MPI_INT, MPI_MAX, comm,
                                 MPI_INFO_NULL, &b));
    CHECK_MPI(MPI_Allreduce_init(ux, ures, 2, MPI_LONG_LONG, op, comm,
                                 MPI_INFO_NULL, &u));
    CHECK_MPI(MPI_Allreduce_init(big, bigsum, 4, MPI_DOUBLE, MPI_SUM, comm,
                                 MPI_INFO_NULL, &g));
    double dwant = 0;
    for (int round = 0; round < rounds; round++) {
        dx = dval(rank, round);
        dsum = -1;
        ip[0] = rank + round;
        ip[1] = -rank - round;
        uval(rank, round, ux);
        for (int j = 0; j < 4; j++)
            big[j] = dval(rank, round) + j;
        CHECK_MPI(MPI_Start(&a));
        int kind = round % 8;
        int v = rank + round, w = -1;
        MPI_Request nb;
        switch (kind) {
        case 0: /* a blocking Allreduce of the same size, on the area too */
            CHECK_MPI(MPI_Allreduce(&v, &w, 1, MPI_INT, MPI_SUM, comm));
            CHECK(w == size * (size - 1) / 2 + size * round,
                  "id %d round %d: MPI_Allreduce %d", id, round, w);
            break;
        case 1:
            w = rank == round % size ? round : -1;
            CHECK_MPI(MPI_Bcast(&w, 1, MPI_INT, round % size, comm));
            CHECK(w == round, "id %d round %d: MPI_Bcast %d", id, round, w);
            break;
        case 2:
            CHECK_MPI(MPI_Barrier(comm));
            break;
        case 3:
            CHECK_MPI(MPI_Iallreduce(&v, &w, 1, MPI_INT, MPI_SUM, comm, &nb));
            CHECK_MPI(MPI_Wait(&nb, MPI_STATUS_IGNORE));
            CHECK(w == size * (size - 1) / 2 + size * round,
                  "id %d round %d: MPI_Iallreduce %d", id, round, w);
            break;
        case 4: /* a second one started on top, completed first */
        case 5: /* ... or second */
            CHECK_MPI(MPI_Start(&b));
            CHECK_MPI(MPI_Start(&u));
            if (kind == 4) {
                CHECK_MPI(MPI_Wait(&u, MPI_STATUS_IGNORE));
                CHECK_MPI(MPI_Wait(&b, MPI_STATUS_IGNORE));
            } else {
                CHECK_MPI(MPI_Wait(&a, MPI_STATUS_IGNORE));
                CHECK_MPI(MPI_Wait(&b, MPI_STATUS_IGNORE));
                CHECK_MPI(MPI_Wait(&u, MPI_STATUS_IGNORE));
            }
            CHECK(ip[0] == size - 1 + round && ip[1] == -round,
                  "id %d round %d: in-place MPI_MAX %d %d", id, round, ip[0],
                  ip[1]);
            ufold(size, round, uwant);
            CHECK(ures[0] == uwant[0] && ures[1] == uwant[1],
                  "id %d round %d: user op (%lld, %lld), expected (%lld, "
                  "%lld)", id, round, ures[0], ures[1], uwant[0], uwant[1]);
            break;
        case 6: /* one that takes messages, then a blocking Reduce */
            CHECK_MPI(MPI_Start(&g));
            CHECK_MPI(MPI_Reduce(&v, &w, 1, MPI_INT, MPI_MAX, 0, comm));
            CHECK(rank != 0 || w == size - 1 + round,
                  "id %d round %d: MPI_Reduce %d", id, round, w);
            CHECK_MPI(MPI_Wait(&g, MPI_STATUS_IGNORE));
            for (int j = 0; j < 4; j++) {
                double want = 0;
                for (int r = 0; r < size; r++)
                    want += dval(r, round) + j;
                CHECK(bigsum[j] == want, "id %d round %d: 32-byte sum[%d] "
                      "%g, expected %g", id, round, j, bigsum[j], want);
            }
            break;
        default: /* nothing between: polled with MPI_Test */
            for (int flag = 0; !flag;)
                CHECK_MPI(MPI_Test(&a, &flag, MPI_STATUS_IGNORE));
            break;
        }
        CHECK_MPI(MPI_Wait(&a, MPI_STATUS_IGNORE));
        dwant = 0;
        for (int r = 0; r < size; r++)
            dwant += dval(r, round);
        CHECK(dsum == dwant, "id %d round %d: persistent sum %g, expected %g",
              id, round, dsum, dwant);
    }
    /* freed while it runs: it still completes, and what follows works.
       Its buffers are static: the program learns of the completion of
       a freed request only by other means (MPI-4.0 3.7.3), and one run
       as a schedule of messages may write its sum after this returns. */
    MPI_Request f;
    freed_x[id] = rank;
    CHECK_MPI(MPI_Allreduce_init(&freed_x[id], &freed_sum[id], 1, MPI_DOUBLE,
                                 MPI_SUM, comm, MPI_INFO_NULL, &f));
    CHECK_MPI(MPI_Start(&f));
    CHECK_MPI(MPI_Request_free(&f));
    CHECK(f == MPI_REQUEST_NULL, "MPI_Request_free left the handle");
    int v = 1, w = 0;
    CHECK_MPI(MPI_Allreduce(&v, &w, 1, MPI_INT, MPI_SUM, comm));
    CHECK(w == size, "id %d: MPI_Allreduce after a freed start %d", id, w);
    CHECK_MPI(MPI_Request_free(&a));
    CHECK_MPI(MPI_Request_free(&b));
    CHECK_MPI(MPI_Request_free(&u));
    CHECK_MPI(MPI_Request_free(&g));
    CHECK_MPI(MPI_Op_free(&op));
}

#endif
