/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sync_test.h - what the sync counter tests (test/sync_*.c) share.
 *
 *   sync_expect_balanced(win, c, what)
 *           CHECK that counter c (mine, on win, no request armed on it)
 *           got exactly the signals its rounds counted: a request armed
 *           with count 0 completes at once, while one signal too many
 *           makes its MPI_Start fail with MPI_ERR_WIN_COUNTER.  Call it
 *           once every signaller is done (after a barrier), so that a
 *           signal counted twice, or a stray one, cannot go unseen.
 */
#ifndef SHMPI_TEST_SYNC_TEST_H
#define SHMPI_TEST_SYNC_TEST_H

#include "check.h"

static inline void sync_expect_balanced(MPI_Win win, MPI_Sync c,
                                        const char *what)
{
    MPI_Request r;
    int flag = 0;
    CHECK_MPI(MPI_Win_sync_object_init(c, 0, win, MPI_INFO_NULL, &r));
    int rc = MPI_Start(&r);
    CHECK(rc == MPI_SUCCESS, "%s: counter %d got more signals than its "
          "rounds counted (MPI_Start with count 0 returned %d)", what, c,
          rc);
    CHECK_MPI(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
    CHECK(flag, "%s: counter %d got fewer signals than its rounds counted",
          what, c);
    CHECK_MPI(MPI_Request_free(&r));
}

#endif
