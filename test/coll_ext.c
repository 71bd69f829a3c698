/* coll_ext: shmpi's own checks in collectives - MPI_ERR_TRUNCATE when a process sends more than the receiver's buffer holds (bcast, gather, scatter, allgather, alltoall; on the shared area and over messages), the collective completing everywhere so the next one works; sendbuf aliasing recvbuf and MPI_REPLACE/MPI_NO_OP rejected; predefined ops on a derived type of one basic type. */
/* shmpi-test: np=1,2,3,4,7,16 timeout=120 ext */
/* shmpi-test-nocheck: its members pass different amounts to one collective on purpose, to get MPI_ERR_TRUNCATE, which the check mode reports as collectives that do not match (5.1). */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

static int rank, size;

/* The communicator still works: an allreduce gives the right sum. */
static void still_works(MPI_Comm comm, const char *after)
{
    int n, one = 1, sum = 0;
    CHECK_MPI(MPI_Comm_size(comm, &n));
    CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, comm));
    CHECK(sum == n, "allreduce after %s: %d, expected %d", after, sum, n);
}

static void truncations(MPI_Comm comm)
{
    int me, n, rc;
    CHECK_MPI(MPI_Comm_rank(comm, &me));
    CHECK_MPI(MPI_Comm_size(comm, &n));
    CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
    int *buf = calloc(4 * (size_t)n + 8, sizeof(int));
    int *big = calloc(40000 * (size_t)n, sizeof(int));
    CHECK(buf && big, "out of memory");

    /* bcast: the root sends 4 ints (or 40000, in rounds), the others
       take 2 (20000): they get what fits and MPI_ERR_TRUNCATE */
    for (int large = 0; large < 2; large++) {
        int *b = large ? big : buf, count = large ? 40000 : 4;
        for (int i = 0; i < count; i++)
            b[i] = me == 0 ? i + 1 : -1;
        rc = MPI_Bcast(b, me == 0 ? count : count / 2, MPI_INT, 0, comm);
        if (me == 0) {
            CHECK_MPI(rc);
        } else {
            CHECK_CLASS(rc, MPI_ERR_TRUNCATE);
            for (int i = 0; i < count / 2; i++)
                CHECK(b[i] == i + 1, "truncated bcast: int %d is %d", i, b[i]);
            CHECK(b[count / 2] == -1, "truncated bcast wrote past the end");
        }
        still_works(comm, "a truncated bcast");
    }

    /* gather: every process sends 2, the root takes 1 from each */
    int two[2] = {me, me};
    rc = MPI_Gather(two, 2, MPI_INT, buf, 1, MPI_INT, 0, comm);
    if (me == 0)
        CHECK_CLASS(rc, MPI_ERR_TRUNCATE);
    else
        CHECK_MPI(rc);
    still_works(comm, "a truncated gather");

    /* scatter: 3 to each, receivers take 2 */
    rc = MPI_Scatter(buf, 3, MPI_INT, two, 2, MPI_INT, n - 1, comm);
    CHECK_CLASS(rc, MPI_ERR_TRUNCATE);
    still_works(comm, "a truncated scatter");

    /* allgather and alltoall: 2 sent, 1 expected per process */
    rc = MPI_Allgather(two, 2, MPI_INT, buf, 1, MPI_INT, comm);
    CHECK_CLASS(rc, MPI_ERR_TRUNCATE);
    still_works(comm, "a truncated allgather");
    rc = MPI_Alltoall(buf, 2, MPI_INT, big, 1, MPI_INT, comm);
    CHECK_CLASS(rc, MPI_ERR_TRUNCATE);
    still_works(comm, "a truncated alltoall");

    CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_ARE_FATAL));
    free(buf);
    free(big);
}

static void rejected(void)
{
    int x[2] = {1, 2};
    MPI_Comm comm = MPI_COMM_WORLD;
    CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
    int y[2];
    CHECK_MPI(MPI_Allreduce(x, y, 2, MPI_INT, MPI_SUM, comm)); /* warm */
    CHECK_CLASS(MPI_Allreduce(x, x, 2, MPI_INT, MPI_SUM, comm),
                MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Allreduce(MPI_IN_PLACE, x, 2, MPI_INT, MPI_REPLACE,
                              comm), MPI_ERR_OP);
    CHECK_CLASS(MPI_Reduce(rank == 0 ? MPI_IN_PLACE : x, x, 2, MPI_INT,
                           MPI_NO_OP, 0, comm), MPI_ERR_OP);
    CHECK_CLASS(MPI_Bcast(MPI_IN_PLACE, 2, MPI_INT, 0, comm),
                MPI_ERR_BUFFER);
    CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_ARE_FATAL));
    still_works(comm, "rejected calls");
}

/* MPI_SUM and MPI_MAX on vector(3, 1, 2) of ints: every element is made
   of MPI_INT, so the predefined op applies to each int; gaps untouched. */
static void derived_sum(long count)
{
    MPI_Datatype vec;
    CHECK_MPI(MPI_Type_vector(3, 1, 2, MPI_INT, &vec));
    CHECK_MPI(MPI_Type_commit(&vec));
    long n = count * 5;
    int *s = calloc((size_t)n, sizeof *s), *d = calloc((size_t)n, sizeof *d);
    CHECK(s && d, "out of memory");
    for (long i = 0; i < n; i++) {
        s[i] = (int)((rank * 7 + i * 3) % 1000);
        d[i] = -7;
    }
    CHECK_MPI(MPI_Allreduce(s, d, (int)count, vec, MPI_SUM, MPI_COMM_WORLD));
    for (long i = 0; i < n; i++) {
        long want = -7;
        if (i % 5 % 2 == 0) {
            want = 0;
            for (int r = 0; r < size; r++)
                want += (r * 7 + i * 3) % 1000;
        }
        CHECK(d[i] == want, "sum of %ld vectors: int %ld is %d, not %ld",
              count, i, d[i], want);
    }
    CHECK_MPI(MPI_Scan(s, d, (int)count, vec, MPI_MAX, MPI_COMM_WORLD));
    for (long i = 0; i < n; i += 5) {
        long want = 0;
        for (int r = 0; r <= rank; r++)
            want = (r * 7 + i * 3) % 1000 > want ? (r * 7 + i * 3) % 1000
                                                  : want;
        CHECK(d[i] == want, "max scan of %ld vectors: int %ld is %d, not "
              "%ld", count, i, d[i], want);
    }
    free(s);
    free(d);
    CHECK_MPI(MPI_Type_free(&vec));
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));

    truncations(MPI_COMM_WORLD);
    /* the same over messages: more communicators than areas */
    enum { MANY = 260 };
    MPI_Comm *many = malloc(MANY * sizeof *many);
    CHECK(many, "out of memory");
    for (int i = 0; i < MANY; i++)
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &many[i]));
    truncations(many[MANY - 1]);
    for (int i = 0; i < MANY; i++)
        CHECK_MPI(MPI_Comm_free(&many[i]));
    free(many);

    rejected();
    derived_sum(3);
    derived_sum(20000);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
