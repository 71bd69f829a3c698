/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * intercomm.h - what the intercommunicator tests (test/intercomm_*.c,
 * test/comm_idup.c) share: the intercommunicator of the even and the
 * odd ranks of a communicator, the check of an intercommunicator's two
 * groups, and messages between them.  Standard MPI only.
 */
#ifndef INTERCOMM_H
#define INTERCOMM_H

#include "check.h"

/* The even ranks of peer (size >= 2) against the odd ones: *local is
   this process's half, *inter the intercommunicator, made with `tag` on
   peer.  The leaders are ranks 0 and 1 of peer. */
static inline void parity_intercomm(MPI_Comm peer, int tag, MPI_Comm *local,
                             MPI_Comm *inter)
{
    int r;
    CHECK_MPI(MPI_Comm_rank(peer, &r));
    CHECK_MPI(MPI_Comm_split(peer, r % 2, r, local));
    CHECK_MPI(MPI_Intercomm_create(*local, 0, peer, r % 2 ? 0 : 1, tag,
                                   inter));
}

/* Rank i of group g is world rank world[i], for i < n, and g has n. */
static inline void check_group_world(MPI_Group g, int n, const int *world,
                              const char *what)
{
    MPI_Group wg;
    int gsize = -1;
    CHECK_MPI(MPI_Group_size(g, &gsize));
    CHECK(gsize == n, "%s: %d members, expected %d", what, gsize, n);
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    for (int i = 0; i < n; i++) {
        int w = -1;
        CHECK_MPI(MPI_Group_translate_ranks(g, 1, &i, wg, &w));
        CHECK(w == world[i], "%s: member %d is world rank %d, expected %d",
              what, i, w, world[i]);
    }
    CHECK_MPI(MPI_Group_free(&wg));
}

/* inter is an intercommunicator whose local group is world ranks
   local[0..n) and remote group world ranks remote[0..rn). */
static inline void check_inter_groups(MPI_Comm inter, int n, const int *local,
                               int rn, const int *remote, const char *what)
{
    int flag = 0, size = -1, rsize = -1, rank = -1, wrank;
    MPI_Group g;
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &wrank));
    CHECK_MPI(MPI_Comm_test_inter(inter, &flag));
    CHECK(flag, "%s: MPI_Comm_test_inter says intracommunicator", what);
    CHECK_MPI(MPI_Comm_size(inter, &size));
    CHECK_MPI(MPI_Comm_remote_size(inter, &rsize));
    CHECK_MPI(MPI_Comm_rank(inter, &rank));
    CHECK(size == n && rsize == rn && rank >= 0 && rank < n &&
              local[rank] == wrank,
          "%s: size %d remote size %d rank %d (world %d), expected %d, "
          "%d", what, size, rsize, rank, wrank, n, rn);
    CHECK_MPI(MPI_Comm_group(inter, &g));
    check_group_world(g, n, local, what);
    CHECK_MPI(MPI_Group_free(&g));
    CHECK_MPI(MPI_Comm_remote_group(inter, &g));
    check_group_world(g, rn, remote, what);
    CHECK_MPI(MPI_Group_free(&g));
}

/*
 * Every process sends its world rank to remote rank (its rank % remote
 * size); every process receives the messages of the remote ranks q with
 * q % local size == its rank, each from its source (so that calls in a
 * row never take each other's), with MPI_ANY_TAG; each must carry
 * remote_world[q].
 */
static inline void check_traffic(MPI_Comm inter, const int *remote_world,
                                 const char *what)
{
    int wrank, me, n, rn;
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &wrank));
    CHECK_MPI(MPI_Comm_rank(inter, &me));
    CHECK_MPI(MPI_Comm_size(inter, &n));
    CHECK_MPI(MPI_Comm_remote_size(inter, &rn));
    MPI_Request s;
    CHECK_MPI(MPI_Isend(&wrank, 1, MPI_INT, me % rn, 4, inter, &s));
    for (int q = me; q < rn; q += n) {
        int v = -1;
        MPI_Status st;
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, q, MPI_ANY_TAG, inter, &st));
        CHECK(st.MPI_SOURCE == q && st.MPI_TAG == 4 && v == remote_world[q],
              "%s: got %d from remote rank %d (status: %d) tag %d", what, v,
              q, st.MPI_SOURCE, st.MPI_TAG);
    }
    CHECK_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
}

#endif
