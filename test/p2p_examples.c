/* p2p_examples: the point-to-point examples of MPI-3.1 chapter 3 that C can express (hello, safe exchange, order, progress, Request_free ping-pong, Waitany/Waitsome server, probe-then-receive, Sendrecv_replace ring), each checking what the standard says it does. */
/* shmpi-test: np=2,3,4 timeout=60 */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Example numbers follow MPI-3.1 section 3; Fortran REALs become C
 * floats, MPI_BSEND (not part of this test) becomes MPI_ISEND, which
 * keeps each example correct.
 */
#include "check.h"

static int rank, size;
static MPI_Comm comm;

/* Example 3.1: "Hello, there" from 0 to 1. */
static void ex_hello(void)
{
    char message[20];
    MPI_Status status;
    if (rank == 0) {
        strcpy(message, "Hello, there");
        CHECK_MPI(MPI_Send(message, (int)strlen(message) + 1, MPI_CHAR, 1, 99,
                           comm));
    } else if (rank == 1) {
        memset(message, 'x', sizeof message);
        CHECK_MPI(MPI_Recv(message, 20, MPI_CHAR, 0, 99, comm, &status));
        CHECK(strcmp(message, "Hello, there") == 0, "received \"%.20s\"",
              message);
        int count;
        CHECK_MPI(MPI_Get_count(&status, MPI_CHAR, &count));
        CHECK(count == 13, "count %d", count);
    }
}

/* Example 3.6 (with MPI_ISEND for the buffered send): the first message
   is received by the second receive; both complete. */
static void ex_two_tags(void)
{
    float buf1[10], buf2[10];
    MPI_Status status;
    if (rank == 0) {
        MPI_Request r;
        for (int i = 0; i < 10; i++) {
            buf1[i] = (float)i;
            buf2[i] = (float)(100 + i);
        }
        CHECK_MPI(MPI_Isend(buf1, 10, MPI_FLOAT, 1, 1, comm, &r));
        CHECK_MPI(MPI_Ssend(buf2, 10, MPI_FLOAT, 1, 2, comm));
        CHECK_MPI(MPI_Wait(&r, &status));
    } else if (rank == 1) {
        CHECK_MPI(MPI_Recv(buf1, 10, MPI_FLOAT, 0, 2, comm, &status));
        CHECK_MPI(MPI_Recv(buf2, 10, MPI_FLOAT, 0, 1, comm, &status));
        CHECK(buf1[0] == 100.0f && buf1[9] == 109.0f && buf2[0] == 0.0f &&
                  buf2[9] == 9.0f,
              "Example 3.6: wrong data");
    }
}

/* Example 3.8: an exchange that completes whatever the buffering (here
   with 1 MiB, far past any eager size). */
static void ex_safe_exchange(void)
{
    enum { N = 1 << 18 };
    float *sendbuf = malloc(N * sizeof(float));
    float *recvbuf = malloc(N * sizeof(float));
    CHECK(sendbuf && recvbuf, "malloc");
    MPI_Status status;
    for (int i = 0; i < N; i++)
        sendbuf[i] = (float)(rank * 10 + i % 1000);
    if (rank == 0) {
        CHECK_MPI(MPI_Send(sendbuf, N, MPI_FLOAT, 1, 17, comm));
        CHECK_MPI(MPI_Recv(recvbuf, N, MPI_FLOAT, 1, 18, comm, &status));
    } else if (rank == 1) {
        CHECK_MPI(MPI_Recv(recvbuf, N, MPI_FLOAT, 0, 17, comm, &status));
        CHECK_MPI(MPI_Send(sendbuf, N, MPI_FLOAT, 0, 18, comm));
    }
    if (rank <= 1)
        for (int i = 0; i < N; i++)
            CHECK(recvbuf[i] == (float)((1 - rank) * 10 + i % 1000),
                  "Example 3.8: element %d", i);
    free(sendbuf);
    free(recvbuf);
}

/* Example 3.12: nonblocking send and receive with computation between. */
static void ex_nonblocking(void)
{
    float a[10];
    MPI_Request request;
    MPI_Status status;
    if (rank == 0) {
        for (int i = 0; i < 10; i++)
            a[i] = (float)i * 1.5f;
        CHECK_MPI(MPI_Isend(a, 10, MPI_FLOAT, 1, 5, comm, &request));
        double x = 0;
        for (int i = 0; i < 10000; i++) /* "some computation" */
            x += i * 0.5;
        CHECK(x > 0, "computation");
        CHECK_MPI(MPI_Wait(&request, &status));
    } else if (rank == 1) {
        CHECK_MPI(MPI_Irecv(a, 15, MPI_FLOAT, 0, 5, comm, &request));
        CHECK_MPI(MPI_Wait(&request, &status));
        int count;
        CHECK_MPI(MPI_Get_count(&status, MPI_FLOAT, &count));
        CHECK(count == 10 && a[9] == 13.5f, "Example 3.12: count %d a[9] %g",
              count, a[9]);
    }
}

/* Example 3.13: MPI_REQUEST_FREE of sends in a ping-pong; the wait for
   the reply shows the freed send was delivered. */
static void ex_request_free(void)
{
    MPI_Request req;
    MPI_Status status;
    int outval, inval = -1;
    const int n = 100;
    if (rank == 0) {
        for (int i = 0; i < n; i++) {
            outval = i;
            CHECK_MPI(MPI_Isend(&outval, 1, MPI_INT, 1, 0, comm, &req));
            CHECK_MPI(MPI_Request_free(&req));
            CHECK_MPI(MPI_Irecv(&inval, 1, MPI_INT, 1, 0, comm, &req));
            CHECK_MPI(MPI_Wait(&req, &status));
            CHECK(inval == 2 * i, "Example 3.13: reply %d to %d", inval, i);
        }
    } else if (rank == 1) {
        CHECK_MPI(MPI_Irecv(&inval, 1, MPI_INT, 0, 0, comm, &req));
        CHECK_MPI(MPI_Wait(&req, &status));
        for (int i = 0; i < n - 1; i++) {
            CHECK(inval == i, "Example 3.13: got %d, expected %d", inval, i);
            outval = 2 * inval;
            CHECK_MPI(MPI_Isend(&outval, 1, MPI_INT, 0, 0, comm, &req));
            CHECK_MPI(MPI_Request_free(&req));
            CHECK_MPI(MPI_Irecv(&inval, 1, MPI_INT, 0, 0, comm, &req));
            CHECK_MPI(MPI_Wait(&req, &status));
        }
        CHECK(inval == n - 1, "Example 3.13: last %d", inval);
        outval = 2 * inval;
        CHECK_MPI(MPI_Isend(&outval, 1, MPI_INT, 0, 0, comm, &req));
        CHECK_MPI(MPI_Wait(&req, &status));
    }
}

/* Example 3.14: the first send matches the first receive, even with
   MPI_ANY_TAG, and both were sent before either receive. */
static void ex_order(void)
{
    float a = 1.0f, b = 2.0f;
    MPI_Request r1, r2;
    MPI_Status status;
    if (rank == 0) {
        CHECK_MPI(MPI_Isend(&a, 1, MPI_FLOAT, 1, 0, comm, &r1));
        CHECK_MPI(MPI_Isend(&b, 1, MPI_FLOAT, 1, 0, comm, &r2));
        CHECK_MPI(MPI_Wait(&r1, &status));
        CHECK_MPI(MPI_Wait(&r2, &status));
    } else if (rank == 1) {
        a = b = 0;
        CHECK_MPI(MPI_Irecv(&a, 1, MPI_FLOAT, 0, MPI_ANY_TAG, comm, &r1));
        CHECK_MPI(MPI_Irecv(&b, 1, MPI_FLOAT, 0, 0, comm, &r2));
        CHECK_MPI(MPI_Wait(&r1, &status));
        CHECK_MPI(MPI_Wait(&r2, &status));
        CHECK(a == 1.0f && b == 2.0f, "Example 3.14: a %g b %g", a, b);
    }
}

/* Example 3.15: the first synchronous send completes once the matching
   nonblocking receive is posted, before the receiver waits for it. */
static void ex_progress(void)
{
    float a = 3.0f, b = 4.0f;
    MPI_Request r;
    MPI_Status status;
    if (rank == 0) {
        CHECK_MPI(MPI_Ssend(&a, 1, MPI_FLOAT, 1, 0, comm));
        CHECK_MPI(MPI_Ssend(&b, 1, MPI_FLOAT, 1, 1, comm));
    } else if (rank == 1) {
        a = b = 0;
        CHECK_MPI(MPI_Irecv(&a, 1, MPI_FLOAT, 0, 0, comm, &r));
        CHECK_MPI(MPI_Recv(&b, 1, MPI_FLOAT, 0, 1, comm, &status));
        CHECK_MPI(MPI_Wait(&r, &status));
        CHECK(a == 3.0f && b == 4.0f, "Example 3.15: a %g b %g", a, b);
    }
}

/* Examples 3.16 and 3.17: a server (the last rank) takes messages from
   all clients with MPI_WAITANY, then with MPI_WAITSOME; each client's
   messages arrive in order and all of them arrive. */
static void ex_server(int use_waitsome)
{
    const int per_client = 200;
    int server = size - 1, nclients = size - 1;
    if (nclients == 0)
        return;
    int tag = 30 + use_waitsome;
    if (rank != server) {
        for (int i = 0; i < per_client; i++) {
            int a[2] = {rank, i};
            CHECK_MPI(MPI_Send(a, 2, MPI_INT, server, tag, comm));
        }
        return;
    }
    int (*a)[2] = malloc(sizeof *a * (size_t)nclients);
    MPI_Request *req = malloc(sizeof *req * (size_t)nclients);
    MPI_Status *st = malloc(sizeof *st * (size_t)nclients);
    int *idx = malloc(sizeof *idx * (size_t)nclients);
    int *next = calloc((size_t)nclients, sizeof *next);
    CHECK(a && req && st && idx && next, "malloc");
    for (int i = 0; i < nclients; i++)
        CHECK_MPI(MPI_Irecv(a[i], 2, MPI_INT, i, tag, comm, &req[i]));
    int left = nclients * per_client;
    while (left > 0) {
        int n = 1;
        if (use_waitsome) {
            CHECK_MPI(MPI_Waitsome(nclients, req, &n, idx, st));
        } else {
            CHECK_MPI(MPI_Waitany(nclients, req, &idx[0], &st[0]));
        }
        CHECK(n >= 1 && n != MPI_UNDEFINED, "outcount %d", n);
        for (int k = 0; k < n; k++) {
            int i = idx[k];
            CHECK(i >= 0 && i < nclients, "index %d", i);
            CHECK(st[k].MPI_SOURCE == i, "status source %d for request %d",
                  st[k].MPI_SOURCE, i);
            CHECK(a[i][0] == i && a[i][1] == next[i],
                  "client %d: message (%d, %d), expected (%d, %d)", i,
                  a[i][0], a[i][1], i, next[i]);
            next[i]++;
            left--;
            if (next[i] < per_client)
                CHECK_MPI(MPI_Irecv(a[i], 2, MPI_INT, i, tag, comm, &req[i]));
        }
    }
    for (int i = 0; i < nclients; i++)
        CHECK(req[i] == MPI_REQUEST_NULL, "request %d left", i);
    free(a);
    free(req);
    free(st);
    free(idx);
    free(next);
}

/* Example 3.18: a blocking probe decides how to receive: rank 0 sends an
   int, rank 1 a float, to rank 2, which receives each with the type and
   source the probe reported. */
static void ex_probe(void)
{
    if (size < 3)
        return;
    MPI_Status status;
    if (rank == 0) {
        int i = 17;
        CHECK_MPI(MPI_Send(&i, 1, MPI_INT, 2, 0, comm));
    } else if (rank == 1) {
        float x = 2.5f;
        CHECK_MPI(MPI_Send(&x, 1, MPI_FLOAT, 2, 0, comm));
    } else if (rank == 2) {
        int got_int = 0, got_float = 0;
        for (int k = 0; k < 2; k++) {
            CHECK_MPI(MPI_Probe(MPI_ANY_SOURCE, 0, comm, &status));
            if (status.MPI_SOURCE == 0) {
                int i = 0;
                CHECK_MPI(MPI_Recv(&i, 1, MPI_INT, 0, 0, comm, &status));
                CHECK(i == 17, "Example 3.18: int %d", i);
                got_int++;
            } else {
                float x = 0;
                CHECK(status.MPI_SOURCE == 1, "probe source %d",
                      status.MPI_SOURCE);
                CHECK_MPI(MPI_Recv(&x, 1, MPI_FLOAT, 1, 0, comm, &status));
                CHECK(x == 2.5f, "Example 3.18: float %g", x);
                got_float++;
            }
        }
        CHECK(got_int == 1 && got_float == 1, "Example 3.18: %d ints %d floats",
              got_int, got_float);
    }
}

/* A ring with MPI_SENDRECV_REPLACE (3.10): each value travels all the way
   round; every rank sees every other rank's value once. */
static void ex_ring(void)
{
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    int val[3] = {rank, rank * rank, -rank};
    long sum = 0;
    MPI_Status status;
    for (int step = 0; step < size; step++) {
        CHECK_MPI(MPI_Sendrecv_replace(val, 3, MPI_INT, next, 40, prev, 40,
                                       comm, &status));
        int from = ((rank - step - 1) % size + size) % size;
        CHECK(val[0] == from && val[1] == from * from && val[2] == -from,
              "ring step %d: holding (%d, %d, %d), expected %d's", step,
              val[0], val[1], val[2], from);
        CHECK(status.MPI_SOURCE == prev && status.MPI_TAG == 40,
              "ring: status (%d, %d)", status.MPI_SOURCE, status.MPI_TAG);
        sum += val[0];
    }
    CHECK(sum == (long)size * (size - 1) / 2, "ring: sum %ld", sum);
}

int main(int argc, char **argv)
{
    CHECK_MPI(MPI_Init(&argc, &argv));
    comm = MPI_COMM_WORLD;
    CHECK_MPI(MPI_Comm_rank(comm, &rank));
    CHECK_MPI(MPI_Comm_size(comm, &size));
    CHECK(size >= 2, "needs 2 ranks");
    ex_hello();
    ex_two_tags();
    ex_safe_exchange();
    ex_nonblocking();
    ex_request_free();
    ex_order();
    ex_progress();
    CHECK_MPI(MPI_Barrier(comm));
    ex_server(0);
    CHECK_MPI(MPI_Barrier(comm));
    ex_server(1);
    CHECK_MPI(MPI_Barrier(comm));
    ex_probe();
    ex_ring();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
