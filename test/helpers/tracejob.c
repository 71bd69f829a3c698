/* tracejob: a job whose MPI calls are known (test/trace.sh): per rank 3 MPI_Isend + 3 MPI_Recv around a ring, 2 MPI_Irecv + 2 MPI_Send back, 1 MPI_Sendrecv, 1 message on a dup, then collectives, then 1 MPI_Put to the right between 2 fences on a window; "fail" makes rank 1 exit 3 before MPI_Finalize; "poll" (np=2) does only this: rank 0 MPI_Tests 3 times and MPI_Iprobes 2 times for a message rank 1 sends after rank 0's go, then MPI_Waits for it; "wide" (np=2) does only this: an MPI_Barrier that rank 1 enters 3 s late, then an MPI_Send_c and MPI_Recv_c of 3e9 elements of a type of 0 bytes, values too wide for a record's fields; "free" (np=2) does only this: rank 0 frees a posted MPI_Irecv, passes a handle that is no request to MPI_Request_free and MPI_Wait (each must return MPI_ERR_REQUEST), then receives a second message with MPI_Irecv + MPI_Wait; "session" (np=2) does only this, with no MPI_Init: a session, a communicator from its group "mpi://WORLD", one message from rank 0 to rank 1 on it, and the session finalized; "any" (np=3) does only this: on a communicator whose ranks are the world's reversed, each rank posts an MPI_Irecv from MPI_ANY_SOURCE, sends to its right there, frees the communicator and MPI_Waits; "many" (np=2) does only this: each rank MPI_Isends 20 messages to the other and MPI_Waitalls them, then MPI_Irecvs 20 and MPI_Waitalls them, more requests than the wrappers keep on their stack. */
/* SPDX-License-Identifier: BSD-3-Clause */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* "poll": the polls cannot find anything, as rank 1 sends only when
   rank 0 has made them. */
static int poll_job(int rank)
{
    int v = 0, flag = 0;
    if (rank == 1) {
        MPI_Recv(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&v, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
    } else if (rank == 0) {
        MPI_Request rq;
        MPI_Irecv(&v, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, &rq);
        for (int i = 0; i < 3 && !flag; i++)
            MPI_Test(&rq, &flag, MPI_STATUS_IGNORE);
        for (int i = 0; i < 2 && !flag; i++)
            MPI_Iprobe(1, 2, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        if (flag)
            return 1;   /* found what cannot be there yet */
        MPI_Send(&v, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
    }
    return 0;
}

/* "wide": a slice longer than 2^32 ticks of the counter (3 s: the
   counter runs at less than 1.4 GHz nowhere it is used) and a count
   beyond 32 bits, both kept whole in the trace (test/trace.sh). */
static void wide_job(int rank)
{
    MPI_Datatype none;
    MPI_Type_contiguous(0, MPI_INT, &none);
    MPI_Type_commit(&none);
    if (rank == 1)
        sleep(3);
    MPI_Barrier(MPI_COMM_WORLD);
    int x = 0;
    if (rank == 0)
        MPI_Send_c(&x, 3000000000, none, 1, 4, MPI_COMM_WORLD);
    else if (rank == 1)
        MPI_Recv_c(&x, 3000000000, none, 0, 4, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
    MPI_Type_free(&none);
}

/* "free": the freed receive has no arrow (its status is never seen);
   the second has one, and the handles that are no request are the
   library's to refuse.  0 if both calls refused them. */
static int free_job(int rank)
{
    int a = 0, b = 0;
    if (rank == 1) {
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Send(&a, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
        MPI_Send(&b, 1, MPI_INT, 0, 4, MPI_COMM_WORLD);
        return 0;
    }
    /* in the first page, where no object of the library lives: read,
       it would be a segmentation fault */
    MPI_Request rq, bad = (MPI_Request)(uintptr_t)0x10;
    MPI_Irecv(&a, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, &rq);
    MPI_Request_free(&rq);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int c1 = -1, c2 = -1;
    MPI_Error_class(MPI_Request_free(&bad), &c1);
    MPI_Error_class(MPI_Wait(&bad, MPI_STATUS_IGNORE), &c2);
    MPI_Irecv(&b, 1, MPI_INT, 1, 4, MPI_COMM_WORLD, &rq);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    return c1 != MPI_ERR_REQUEST || c2 != MPI_ERR_REQUEST;
}

/* "any": the arrow of a receive from MPI_ANY_SOURCE ends at its
   sender's world rank, not at the rank the status gives (its rank in
   the reversed communicator), and the communicator is freed before the
   wait that completes the receive (6.4.3: it goes when that does). */
static void any_job(int rank, int np)
{
    MPI_Comm rev;
    MPI_Request rq;
    int c, x = rank, y = -1;
    MPI_Comm_split(MPI_COMM_WORLD, 0, np - rank, &rev);
    MPI_Comm_rank(rev, &c);
    MPI_Irecv(&y, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, rev, &rq);
    MPI_Send(&x, 1, MPI_INT, (c + 1) % np, 8, rev);
    MPI_Comm_free(&rev);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
}

/* "many": a completion call of more requests than the wrappers keep on
   their stack (16), one that follows no receive and one that follows
   20, each arrow drawn. */
static void many_job(int rank)
{
    enum { N = 20 };
    int out[N], in[N];
    MPI_Request rq[N];
    for (int i = 0; i < N; i++) {
        out[i] = i;
        MPI_Isend(&out[i], 1, MPI_INT, 1 - rank, i, MPI_COMM_WORLD, &rq[i]);
    }
    MPI_Waitall(N, rq, MPI_STATUSES_IGNORE);
    for (int i = 0; i < N; i++)
        MPI_Irecv(&in[i], 1, MPI_INT, 1 - rank, i, MPI_COMM_WORLD, &rq[i]);
    MPI_Waitall(N, rq, MPI_STATUSES_IGNORE);
}

/* "session": the Sessions Model alone; the last MPI_Session_finalize
   ends MPI in the process, and the records are written then. */
static int session_job(void)
{
    MPI_Session s;
    MPI_Group g;
    MPI_Comm c;
    int rank, x = 5;
    MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &s);
    MPI_Group_from_session_pset(s, "mpi://WORLD", &g);
    MPI_Comm_create_from_group(g, "shmpi.test.trace", MPI_INFO_NULL,
                               MPI_ERRORS_ARE_FATAL, &c);
    MPI_Comm_rank(c, &rank);
    if (rank == 0)
        MPI_Send(&x, 1, MPI_INT, 1, 6, c);
    else if (rank == 1)
        MPI_Recv(&x, 1, MPI_INT, 0, 6, c, MPI_STATUS_IGNORE);
    MPI_Comm_free(&c);
    MPI_Group_free(&g);
    MPI_Session_finalize(&s);
    return x != 5;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "session") == 0)
        return session_job() ? 4 : 0;
    int rank, np, v[3] = {1, 2, 3}, w[3], x = 0, y = 0;
    MPI_Request rq[3];
    MPI_Comm dup;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (argc > 1 && strcmp(argv[1], "poll") == 0) {
        int bad = poll_job(rank);
        MPI_Finalize();
        return bad ? 4 : 0;
    }
    if (argc > 1 && strcmp(argv[1], "free") == 0) {
        int bad = free_job(rank);
        MPI_Finalize();
        return bad ? 4 : 0;
    }
    if (argc > 1 && strcmp(argv[1], "any") == 0) {
        any_job(rank, np);
        MPI_Finalize();
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "many") == 0) {
        many_job(rank);
        MPI_Finalize();
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "wide") == 0) {
        wide_job(rank);
        MPI_Finalize();
        return 0;
    }
    int right = (rank + 1) % np, left = (rank + np - 1) % np;
    for (int i = 0; i < 3; i++)
        MPI_Isend(&v[i], 1, MPI_INT, right, 7, MPI_COMM_WORLD, &rq[i]);
    for (int i = 0; i < 3; i++)
        MPI_Recv(&w[i], 1, MPI_INT, left, MPI_ANY_TAG, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Waitall(3, rq, MPI_STATUSES_IGNORE);
    for (int i = 0; i < 2; i++)
        MPI_Irecv(&w[i], 1, MPI_INT, right, 9, MPI_COMM_WORLD, &rq[i]);
    for (int i = 0; i < 2; i++)
        MPI_Send(&v[i], 1, MPI_INT, left, 9, MPI_COMM_WORLD);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    MPI_Sendrecv(&x, 1, MPI_INT, right, 5, &y, 1, MPI_INT, left, 5,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    if (rank % 2 == 0) {
        MPI_Send(&x, 1, MPI_INT, right, 7, dup);
        MPI_Recv(&y, 1, MPI_INT, left, 7, dup, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(&y, 1, MPI_INT, left, 7, dup, MPI_STATUS_IGNORE);
        MPI_Send(&x, 1, MPI_INT, right, 7, dup);
    }
    MPI_Comm_free(&dup);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Bcast(v, 3, MPI_INT, 0, MPI_COMM_WORLD);
    for (int i = 0; i < 4; i++)
        MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (argc > 1 && strcmp(argv[1], "fail") == 0 && rank == 1)
        exit(3);
    MPI_Reduce(&x, &y, 1, MPI_INT, MPI_SUM, np - 1, MPI_COMM_WORLD);
    int *all = malloc((size_t)np * sizeof *all);
    MPI_Gather(&x, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
    free(all);
    MPI_Win win;
    MPI_Win_create(w, sizeof w, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                   &win);
    MPI_Win_fence(0, win);
    MPI_Put(&x, 1, MPI_INT, right, 0, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
