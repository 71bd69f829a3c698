/* session_world_ext: a program of sessions alone (no MPI_Init) finds mpi://WORLD and mpi://SELF, makes a communicator from WORLD's group and communicates on it. */
/* shmpi-test: np=1,2,4 timeout=30 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

static void check_psets(MPI_Session s, int size)
{
    int n = 0;
    CHECK_MPI(MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n));
    CHECK(n == 2, "%d psets, want 2", n);
    int seen_world = 0, seen_self = 0;
    for (int i = 0; i < n; i++) {
        int len = 0;
        CHECK_MPI(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, NULL));
        char name[MPI_MAX_PSET_NAME_LEN];
        CHECK(len > 1 && len <= (int)sizeof name, "len %d", len);
        int want = len;
        CHECK_MPI(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, name));
        CHECK(len == want && (int)strlen(name) + 1 == len, "len %d", len);
        char cut[4];
        int short_len = (int)sizeof cut;
        CHECK_MPI(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &short_len,
                                           cut));
        CHECK(short_len == want && strlen(cut) == 3 &&
                  strncmp(cut, name, 3) == 0,
              "a short buffer gets the name cut: \"%s\"", cut);
        seen_world += strcmp(name, "mpi://WORLD") == 0;
        seen_self += strcmp(name, "mpi://SELF") == 0;
        MPI_Info info;
        char v[32];
        int flag = 0;
        CHECK_MPI(MPI_Session_get_pset_info(s, name, &info));
        CHECK_MPI(MPI_Info_get(info, "mpi_size", (int)sizeof v - 1, v, &flag));
        CHECK(flag && atoi(v) == (strcmp(name, "mpi://SELF") ? size : 1),
              "%s: mpi_size %s", name, v);
        CHECK_MPI(MPI_Info_free(&info));
    }
    CHECK(seen_world == 1 && seen_self == 1, "psets %d %d", seen_world,
          seen_self);
}

int main(void)
{
    MPI_Session s;
    CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
    int flag = 1;
    CHECK_MPI(MPI_Initialized(&flag));
    CHECK(!flag, "MPI_Initialized says the World Model is initialized");
    MPI_Group g;
    CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
    int rank, size;
    CHECK_MPI(MPI_Group_rank(g, &rank));
    CHECK_MPI(MPI_Group_size(g, &size));
    check_psets(s, size);
    MPI_Comm comm;
    CHECK_MPI(MPI_Comm_create_from_group(g, "org.shmpi.test.world",
                                         MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                         &comm));
    CHECK_MPI(MPI_Group_free(&g));
    int crank, csize;
    CHECK_MPI(MPI_Comm_rank(comm, &crank));
    CHECK_MPI(MPI_Comm_size(comm, &csize));
    CHECK(crank == rank && csize == size, "rank %d/%d size %d/%d", crank,
          rank, csize, size);
    MPI_Errhandler eh;
    CHECK_MPI(MPI_Comm_get_errhandler(comm, &eh));
    CHECK(eh == MPI_ERRORS_RETURN, "the communicator has the handler given");
    CHECK_MPI(MPI_Errhandler_free(&eh));
    /* a ring, then a reduction */
    int right = (rank + 1) % size, left = (rank + size - 1) % size, got = -1;
    CHECK_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, right, 7, &got, 1, MPI_INT,
                           left, 7, comm, MPI_STATUS_IGNORE));
    CHECK(got == left, "got %d from the left, want %d", got, left);
    int sum = 0;
    CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comm));
    CHECK(sum == size * (size - 1) / 2, "sum %d", sum);
    /* SELF */
    MPI_Group gs;
    MPI_Comm self;
    CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://SELF", &gs));
    CHECK_MPI(MPI_Comm_create_from_group(gs, "org.shmpi.test.self",
                                         MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                         &self));
    CHECK_MPI(MPI_Comm_size(self, &csize));
    CHECK(csize == 1, "self has %d", csize);
    CHECK_MPI(MPI_Group_free(&gs));
    CHECK_MPI(MPI_Comm_free(&self));
    CHECK_MPI(MPI_Comm_free(&comm));
    CHECK_MPI(MPI_Session_finalize(&s));
    CHECK(s == MPI_SESSION_NULL, "the handle is MPI_SESSION_NULL");
    CHECK_MPI(MPI_Finalized(&flag));
    CHECK(!flag, "MPI_Finalized says the World Model ended");
    return 0;
}
