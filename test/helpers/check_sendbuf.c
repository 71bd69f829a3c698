/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * check_sendbuf - send buffers written before their sends completed
 * (MPI-3.1 3.7.2), or, with "ok", the same program corrected: a mistake
 * for mpirun --check to report (test/check.sh), np = 2.
 *
 *   check_sendbuf      rank 0 writes the buffer of an MPI_Isend before
 *                      its MPI_Wait, of a persistent send between
 *                      MPI_Start and MPI_Waitall, of an MPI_Isendrecv
 *                      before the MPI_Test that completes it, and of an
 *                      MPI_Ibsend (whose data is copied at once) before
 *                      its MPI_Waitany: 4 problems
 *   check_sendbuf ok   the writes come after the completions; and a
 *                      write between the elements of a vector type
 *                      while its send is in flight, which is no part of
 *                      the send buffer
 */
#include <stdlib.h>
#include <string.h>

#include "mpi.h"

static int buf[8];

/* rank 0: change the buffer before (mistake) or after (ok) done() */
static void send_isend(int ok)
{
    MPI_Request r;
    MPI_Isend(buf, 4, MPI_INT, 1, 7, MPI_COMM_WORLD, &r);
    if (!ok)
        buf[0] = 99;
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    buf[0] = 98;
}

static void send_persistent(int ok)
{
    MPI_Request r;
    MPI_Send_init(buf, 4, MPI_INT, 1, 8, MPI_COMM_WORLD, &r);
    MPI_Start(&r);
    if (!ok)
        buf[1] = 99;
    MPI_Waitall(1, &r, MPI_STATUSES_IGNORE);
    buf[1] = 98;
    MPI_Request_free(&r);
}

static void send_isendrecv(int ok)
{
    MPI_Request r;
    int in, flag = 0;
    MPI_Isendrecv(buf, 4, MPI_INT, 1, 9, &in, 1, MPI_INT, 1, 9,
                  MPI_COMM_WORLD, &r);
    if (!ok)
        buf[2] = 99;
    while (!flag)
        MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
    buf[2] = 98;
}

static void send_ibsend(int ok)
{
    static char space[1024];
    int index;
    MPI_Request r;
    MPI_Buffer_attach(space, sizeof space);
    MPI_Ibsend(buf, 4, MPI_INT, 1, 11, MPI_COMM_WORLD, &r);
    if (!ok)
        buf[3] = 99;
    MPI_Waitany(1, &r, &index, MPI_STATUS_IGNORE);
    buf[3] = 98;
    void *was;
    int size;
    MPI_Buffer_detach(&was, &size);
}

/* every other int of buf: the ones between are not the send's */
static void send_vector_gaps(void)
{
    MPI_Datatype v;
    MPI_Request r;
    MPI_Type_vector(4, 1, 2, MPI_INT, &v);
    MPI_Type_commit(&v);
    MPI_Isend(buf, 1, v, 1, 10, MPI_COMM_WORLD, &r);
    buf[1] = buf[3] = 97;
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Type_free(&v);
}

static void receive_all(int ok)
{
    int in[4], out = 5;
    MPI_Recv(in, 4, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(in, 4, MPI_INT, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&out, 1, MPI_INT, 0, 9, in, 4, MPI_INT, 0, 9,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(in, 4, MPI_INT, 0, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (ok)
        MPI_Recv(in, 4, MPI_INT, 0, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv)
{
    int rank, ok = argc > 1 && strcmp(argv[1], "ok") == 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        send_isend(ok);
        send_persistent(ok);
        send_isendrecv(ok);
        send_ibsend(ok);
        if (ok)
            send_vector_gaps();
    } else if (rank == 1) {
        receive_all(ok);
    }
    MPI_Finalize();
    return 0;
}
