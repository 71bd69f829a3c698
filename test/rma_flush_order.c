/* rma_flush_order: MPI_Win_flush completes what came before it - in a Dekker round (raise my flag, flush, read the other's) two ranks never both miss each other's flag - with puts and gets, with a fetch_and_op between the put and the flush, with fetch_and_op flags read by MPI_NO_OP, and with plain stores and loads of an MPI_Win_allocate_shared window after a fetch_and_op (11.2.3: a flush completes store accesses). */
/* shmpi-test: np=2,3,4 timeout=60 */
/* shmpi-test-nocheck: its put-then-get Dekker rounds race one rank's put of its flag with the other's get of it on purpose (the outcome MPI-3.1 11.7.1 leaves undefined, here ordered by the flush), which the check mode reports as conflicting accesses. */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#define ROUNDS 3000

/* How a rank raises its flag and reads its partner's, within a
   lock_all epoch on the pair's host. */
enum variant { PUT_GET, PUT_FOP_GET, FOP_FOP, STORE_LOAD, VARIANTS };

static const char *const names[VARIANTS] = {
    "put; flush; get", "put; fetch_and_op; flush; get",
    "fetch_and_op(REPLACE); flush; fetch_and_op(NO_OP)",
    "fetch_and_op; store; flush; load (shared window)"};

/* STORE_LOAD: the flags are host's memory, which base points at (the
   window is MPI_Win_allocate_shared); the fetch_and_op before the store
   is an RMA call the flush might otherwise think covered it. */
static long store_and_load(MPI_Win win, int host, volatile long *flags,
                           int mine, int theirs, long round)
{
    long old, one = 1;
    CHECK_MPI(MPI_Fetch_and_op(&one, &old, MPI_LONG, host, 2, MPI_SUM, win));
    flags[mine] = round;
    CHECK_MPI(MPI_Win_flush(host, win));
    return flags[theirs];
}

static long raise_and_read(enum variant v, MPI_Win win, int host,
                           volatile long *flags, int mine, int theirs,
                           long round)
{
    long old, seen = -1, one = 1;
    if (v == STORE_LOAD)
        return store_and_load(win, host, flags, mine, theirs, round);
    if (v == FOP_FOP)
        CHECK_MPI(MPI_Fetch_and_op(&round, &old, MPI_LONG, host, mine,
                                   MPI_REPLACE, win));
    else
        CHECK_MPI(MPI_Put(&round, 1, MPI_LONG, host, mine, 1, MPI_LONG,
                          win));
    if (v == PUT_FOP_GET) /* slot 2 counts, nobody reads it in the round */
        CHECK_MPI(MPI_Fetch_and_op(&one, &old, MPI_LONG, host, 2, MPI_SUM,
                                   win));
    CHECK_MPI(MPI_Win_flush(host, win));
    if (v == FOP_FOP)
        CHECK_MPI(MPI_Fetch_and_op(NULL, &seen, MPI_LONG, host, theirs,
                                   MPI_NO_OP, win));
    else
        CHECK_MPI(MPI_Get(&seen, 1, MPI_LONG, host, theirs, 1, MPI_LONG,
                          win));
    CHECK_MPI(MPI_Win_flush(host, win));
    return seen;
}

int main(int argc, char **argv)
{
    int rank, size;
    CHECK_MPI(MPI_Init(&argc, &argv));
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* pairs (0,1), (2,3), ...; an odd last rank only takes part in the
       collectives */
    int partner = rank ^ 1, host = rank & ~1;
    int paired = partner < size;
    MPI_Comm pair;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, paired ? host : MPI_UNDEFINED,
                             rank, &pair));
    if (!paired) {
        CHECK_MPI(MPI_Finalize());
        return 0;
    }
    long *base;
    MPI_Win win;
    /* shared, so that STORE_LOAD can use the host's flags directly; the
       other variants reach them with RMA calls as on any window */
    CHECK_MPI(MPI_Win_allocate_shared(3 * sizeof(long), sizeof(long),
                                      MPI_INFO_NULL, pair, &base, &win));
    MPI_Aint bytes;
    int unit;
    long *host_flags;
    CHECK_MPI(MPI_Win_shared_query(win, 0, &bytes, &unit, &host_flags));
    int me = rank & 1, them = partner & 1; /* ranks in `pair` */
    char *saw = malloc(ROUNDS), *their_saw = malloc(ROUNDS);
    CHECK(saw && their_saw, "out of memory");
    for (int v = 0; v < VARIANTS; v++) {
        base[0] = base[1] = base[2] = 0;
        CHECK_MPI(MPI_Win_lock_all(0, win));
        CHECK_MPI(MPI_Barrier(pair));
        for (long r = 1; r <= ROUNDS; r++) {
            CHECK_MPI(MPI_Barrier(pair)); /* start the round together */
            saw[r - 1] = raise_and_read((enum variant)v, win, 0, host_flags,
                                        me, them, r) >= r;
        }
        CHECK_MPI(MPI_Win_unlock_all(win));
        CHECK_MPI(MPI_Sendrecv(saw, ROUNDS, MPI_CHAR, them, 0, their_saw,
                               ROUNDS, MPI_CHAR, them, 0, pair,
                               MPI_STATUS_IGNORE));
        for (int r = 0; r < ROUNDS; r++)
            CHECK(saw[r] || their_saw[r],
                  "%s, round %d: neither rank saw the other's flag, so a "
                  "flush did not complete the operation before it",
                  names[v], r + 1);
        CHECK_MPI(MPI_Barrier(pair));
        if ((v == PUT_FOP_GET || v == STORE_LOAD) && me == 0)
            CHECK(base[2] == 2L * ROUNDS, "fetch_and_op counted %ld, not %ld",
                  base[2], 2L * ROUNDS);
    }
    free(saw);
    free(their_saw);
    CHECK_MPI(MPI_Win_free(&win));
    CHECK_MPI(MPI_Comm_free(&pair));
    CHECK_MPI(MPI_Finalize());
    return 0;
}
