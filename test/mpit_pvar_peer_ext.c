/* mpit_pvar_peer_ext: shmpi's per-peer performance variables (shmpi_p2p_messages_sent/received, shmpi_p2p_bytes_sent/received), bound to a communicator with one element per peer - each rank sends a known number of messages of known sizes to every rank (itself too) by MPI_Isend, MPI_Ssend and over the eager limit, and around a ring by MPI_Send and MPI_Recv, on MPI_COMM_WORLD and on a duplicate, and every element reads exactly what was sent and received while the handles were started, nothing while stopped; a handle on a communicator whose ranks are reversed has its elements in that communicator's order; reset and readreset; bad objects. */
/* shmpi-test: np=1,2,3 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdlib.h>
#include <string.h>

#include "check.h"

enum { SENT, SENT_BYTES, RECVD, RECVD_BYTES, NVARS };
static const char *names[NVARS] = {
    "shmpi_p2p_messages_sent", "shmpi_p2p_bytes_sent",
    "shmpi_p2p_messages_received", "shmpi_p2p_bytes_received"};

static MPI_T_pvar_session s;
static int rank, size;

static MPI_T_pvar_handle handle(int var, MPI_Comm comm)
{
    int i = -1, count = 0, cls, bind, readonly, continuous, atomic;
    MPI_Datatype dt;
    T_RC(MPI_T_pvar_get_index(names[var], MPI_T_PVAR_CLASS_COUNTER, &i),
         MPI_SUCCESS);
    T_RC(MPI_T_pvar_get_info(i, NULL, NULL, NULL, &cls, &dt, NULL, NULL,
                             NULL, &bind, &readonly, &continuous, &atomic),
         MPI_SUCCESS);
    CHECK(bind == MPI_T_BIND_MPI_COMM && dt == MPI_UNSIGNED_LONG_LONG &&
              !readonly && !continuous && atomic,
          "%s: info", names[var]);
    MPI_T_pvar_handle h;
    T_RC(MPI_T_pvar_handle_alloc(s, i, &comm, &h, &count), MPI_SUCCESS);
    int n;
    MPI_Comm_size(comm, &n);
    CHECK(count == n, "%s: count %d, comm size %d", names[var], count, n);
    return h;
}

/* Messages rank `from` sends `to`, and the size of the k-th. */
#define RING 5
#define RING_BYTES 24

static int nmsgs(int from, int to)
{
    return 2 + from + 2 * to;
}

static int msg_bytes(int from, int to, int k)
{
    if (k == 1)
        return 200000 + to; /* over the eager limit: rendezvous */
    return 8 * (from + 1) + to + k;
}

static unsigned long long expect(int var, int peer)
{
    int from = var < RECVD ? rank : peer, to = var < RECVD ? peer : rank;
    int bytes = var == SENT_BYTES || var == RECVD_BYTES;
    unsigned long long v = 0;
    for (int k = 0; k < nmsgs(from, to); k++)
        v += bytes ? (unsigned long long)msg_bytes(from, to, k) : 1;
    if (to == (from + 1) % size) /* the ring of blocking calls */
        v += bytes ? RING * RING_BYTES : RING;
    return v;
}

/* n blocking MPI_Send and MPI_Recv of `bytes` around a ring (their fast
   paths once the pairs are hot): eager, so each send completes before
   its receive is posted. */
static void ring(int n, int bytes)
{
    char buf[64] = {0};
    for (int k = 0; k < n; k++) {
        CHECK_MPI(MPI_Send(buf, bytes, MPI_BYTE, (rank + 1) % size, 99,
                           MPI_COMM_WORLD));
        CHECK_MPI(MPI_Recv(buf, bytes, MPI_BYTE, (rank + size - 1) % size, 99,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    }
}

/* Every rank sends nmsgs(rank, p) to every p: k even on MPI_COMM_WORLD,
   odd on dup; by MPI_Isend, and MPI_Ssend for k == 2 (to others). */
static void exchange(MPI_Comm dup)
{
    char *buf = calloc(1, 300000);
    CHECK(buf, "out of memory");
    int total = 0;
    for (int p = 0; p < size; p++)
        total += nmsgs(rank, p) + nmsgs(p, rank);
    MPI_Request *req = calloc((size_t)total + 1, sizeof *req);
    char **rbuf = calloc((size_t)total + 1, sizeof *rbuf);
    CHECK(req && rbuf, "out of memory");
    int n = 0;
    for (int p = 0; p < size; p++)
        for (int k = 0; k < nmsgs(p, rank); k++) {
            rbuf[n] = malloc((size_t)msg_bytes(p, rank, k));
            CHECK_MPI(MPI_Irecv(rbuf[n], msg_bytes(p, rank, k), MPI_BYTE, p,
                                k, k % 2 ? dup : MPI_COMM_WORLD, &req[n]));
            n++;
        }
    int nr = n;
    for (int p = 0; p < size; p++)
        for (int k = 0; k < nmsgs(rank, p); k++) {
            MPI_Comm c = k % 2 ? dup : MPI_COMM_WORLD;
            if (k == 2)
                CHECK_MPI(MPI_Ssend(buf, msg_bytes(rank, p, k), MPI_BYTE, p,
                                    k, c));
            else
                CHECK_MPI(MPI_Isend(buf, msg_bytes(rank, p, k), MPI_BYTE, p,
                                    k, c, &req[n++]));
        }
    CHECK_MPI(MPI_Waitall(n, req, MPI_STATUSES_IGNORE));
    ring(RING, RING_BYTES);
    for (int i = 0; i < nr; i++)
        free(rbuf[i]);
    free(rbuf);
    free(req);
    free(buf);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

static void read_all(MPI_T_pvar_handle *h, unsigned long long v[][64])
{
    for (int var = 0; var < NVARS; var++)
        T_RC(MPI_T_pvar_read(s, h[var], v[var]), MPI_SUCCESS);
}

static void check_all(unsigned long long v[][64], int times, const int *order)
{
    for (int var = 0; var < NVARS; var++)
        for (int i = 0; i < size; i++)
            CHECK(v[var][i] == times * expect(var, order[i]),
                  "%s[%d] (world rank %d): %llu, expected %llu", names[var],
                  i, order[i], v[var][i], times * expect(var, order[i]));
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size <= 64, "at most 64 ranks");
    T_RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);
    T_RC(MPI_T_pvar_session_create(&s), MPI_SUCCESS);
    MPI_Comm dup, rev;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &rev));
    MPI_T_pvar_handle h[NVARS], hr[NVARS];
    for (int var = 0; var < NVARS; var++) {
        h[var] = handle(var, MPI_COMM_WORLD);
        hr[var] = handle(var, rev);
    }
    int world[64], reversed[64];
    for (int i = 0; i < size; i++) {
        world[i] = i;
        reversed[i] = size - 1 - i;
    }
    static unsigned long long v[NVARS][64];

    /* not started: nothing counted; the ring's pairs turn hot (more
       than SHMPI_FAST_AFTER records each way) */
    ring(300, 1);
    exchange(dup);
    read_all(h, v);
    check_all(v, 0, world);

    /* started: exactly what was sent and received */
    T_RC(MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);
    exchange(dup);
    read_all(h, v);
    check_all(v, 1, world);
    read_all(hr, v);
    check_all(v, 1, reversed);

    /* stopped: the counts stay; started again: they go on */
    T_RC(MPI_T_pvar_stop(s, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);
    exchange(dup);
    read_all(h, v);
    check_all(v, 1, world);
    T_RC(MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);
    exchange(dup);
    read_all(h, v);
    check_all(v, 2, world);

    /* readreset takes the counts and starts again from 0; reset too */
    T_RC(MPI_T_pvar_readreset(s, h[SENT], v[SENT]), MPI_SUCCESS);
    for (int i = 0; i < size; i++)
        CHECK(v[SENT][i] == 2 * expect(SENT, i), "readreset[%d]: %llu", i,
              v[SENT][i]);
    T_RC(MPI_T_pvar_reset(s, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);
    read_all(h, v);
    check_all(v, 0, world);
    exchange(dup);
    read_all(h, v);
    check_all(v, 1, world);

    /* bad objects */
    int idx;
    MPI_T_pvar_handle bad;
    int count;
    T_RC(MPI_T_pvar_get_index(names[SENT], MPI_T_PVAR_CLASS_COUNTER, &idx),
         MPI_SUCCESS);
    MPI_Comm null = MPI_COMM_NULL;
    T_RC(MPI_T_pvar_handle_alloc(s, idx, &null, &bad, &count),
         MPI_T_ERR_INVALID_HANDLE);
    T_RC(MPI_T_pvar_handle_alloc(s, idx, NULL, &bad, &count),
         MPI_T_ERR_INVALID_HANDLE);

    T_RC(MPI_T_pvar_session_free(&s), MPI_SUCCESS);
    T_RC(MPI_T_finalize(), MPI_SUCCESS);
    CHECK_MPI(MPI_Comm_free(&rev));
    CHECK_MPI(MPI_Comm_free(&dup));
    MPI_Finalize();
    return 0;
}
