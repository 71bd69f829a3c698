/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * comm_members.h - the check the communicator constructor tests
 * (test/comm_create.c, test/comm_split.c) share: which world ranks a new
 * communicator holds, in which order.  Standard MPI only.
 */
#ifndef COMM_MEMBERS_H
#define COMM_MEMBERS_H

#include "check.h"

/* Rank i of comm is world rank members[i], for i < n. */
static void check_member_order(MPI_Comm comm, MPI_Group world_group, int n,
                               const int *members, const char *what)
{
    MPI_Group g;
    int *idx = malloc(sizeof(int) * n), *w = malloc(sizeof(int) * n);
    CHECK(idx && w, "out of memory");
    for (int i = 0; i < n; i++)
        idx[i] = i;
    CHECK_MPI(MPI_Comm_group(comm, &g));
    CHECK_MPI(MPI_Group_translate_ranks(g, n, idx, world_group, w));
    for (int i = 0; i < n; i++)
        CHECK(w[i] == members[i], "%s: rank %d is world rank %d, expected %d",
              what, i, w[i], members[i]);
    CHECK_MPI(MPI_Group_free(&g));
    free(idx);
    free(w);
}

#endif
