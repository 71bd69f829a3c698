/* session_two_ext: two sessions at once, each with its thread level and its own communicator from mpi://WORLD; ending one leaves the other working. */
/* shmpi-test: np=1,2,4 timeout=30 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

static MPI_Session open_session(const char *level, MPI_Comm *comm,
                                const char *tag)
{
    MPI_Info info;
    MPI_Session s;
    MPI_Group g;
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "thread_level", level));
    CHECK_MPI(MPI_Info_set(info, "org.shmpi.test", tag));
    CHECK_MPI(MPI_Session_init(info, MPI_ERRORS_RETURN, &s));
    CHECK_MPI(MPI_Info_free(&info));
    CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
    CHECK_MPI(MPI_Comm_create_from_group(g, tag, MPI_INFO_NULL,
                                         MPI_ERRORS_RETURN, comm));
    CHECK_MPI(MPI_Group_free(&g));
    return s;
}

static void check_info(MPI_Session s, const char *level, const char *tag)
{
    MPI_Info info;
    char v[64];
    int flag = 0;
    CHECK_MPI(MPI_Session_get_info(s, &info));
    CHECK_MPI(MPI_Info_get(info, "thread_level", (int)sizeof v - 1, v, &flag));
    CHECK(flag && strcmp(v, level) == 0, "thread_level %s, want %s", v,
          level);
    CHECK_MPI(MPI_Info_get(info, "org.shmpi.test", (int)sizeof v - 1, v,
                           &flag));
    CHECK(flag && strcmp(v, tag) == 0, "the hint given is kept: %s", v);
    CHECK_MPI(MPI_Info_free(&info));
}

int main(void)
{
    MPI_Comm c1, c2;
    MPI_Session s1 = open_session("MPI_THREAD_SINGLE", &c1, "one");
    MPI_Session s2 = open_session("MPI_THREAD_SERIALIZED", &c2, "two");
    CHECK(s1 != s2, "two sessions, one handle");
    check_info(s1, "MPI_THREAD_SINGLE", "one");
    check_info(s2, "MPI_THREAD_SERIALIZED", "two");
    int rank, size;
    CHECK_MPI(MPI_Comm_rank(c1, &rank));
    CHECK_MPI(MPI_Comm_size(c1, &size));
    int to = (rank + 1) % size, from = (rank + size - 1) % size;
    int x1 = 10 + rank, x2 = 20 + rank, g1 = -1, g2 = -1;
    MPI_Request rq[4];
    CHECK_MPI(MPI_Irecv(&g2, 1, MPI_INT, from, 0, c2, &rq[0]));
    CHECK_MPI(MPI_Irecv(&g1, 1, MPI_INT, from, 0, c1, &rq[1]));
    CHECK_MPI(MPI_Isend(&x1, 1, MPI_INT, to, 0, c1, &rq[2]));
    CHECK_MPI(MPI_Isend(&x2, 1, MPI_INT, to, 0, c2, &rq[3]));
    CHECK_MPI(MPI_Waitall(4, rq, MPI_STATUSES_IGNORE));
    CHECK(g1 == 10 + from && g2 == 20 + from, "crossed: %d %d", g1, g2);
    CHECK_MPI(MPI_Comm_free(&c1));
    CHECK_MPI(MPI_Session_finalize(&s1));
    int sum = 0;
    CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, c2));
    CHECK(sum == size * (size - 1) / 2, "sum %d after the first ended", sum);
    CHECK_MPI(MPI_Comm_free(&c2));
    CHECK_MPI(MPI_Session_finalize(&s2));
    return 0;
}
