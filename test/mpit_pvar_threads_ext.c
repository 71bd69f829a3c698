/* mpit_pvar_threads_ext: under MPI_THREAD_MULTIPLE, four threads per rank, each on a communicator of its own (so on different lanes), exchange messages with the other rank while a fifth thread reads the per-peer variables and the unexpected-queue length without pause; at the end shmpi_p2p_messages_sent/received and shmpi_p2p_bytes_sent/received read exactly the sum of every thread's messages, and shmpi_unexpected_length reads 0. */
/* shmpi-test: np=2 timeout=120 threads ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include <pthread.h>
#include <stdatomic.h>

#include "check.h"

#define THREADS 4
#define N 400

static const char *names[4] = {
    "shmpi_p2p_messages_sent", "shmpi_p2p_bytes_sent",
    "shmpi_p2p_messages_received", "shmpi_p2p_bytes_received"};
static MPI_T_pvar_session s;
static MPI_T_pvar_handle h[4], len;
static MPI_Comm comms[THREADS];
static int rank;
static atomic_int done;

static int bytes_of(int t, int k)
{
    return 1 + (t * 37 + k) % 64;
}

static void *talk(void *arg)
{
    int t = (int)(long)arg, peer = 1 - rank;
    char out[64] = {0}, in[64];
    for (int k = 0; k < N; k++) {
        MPI_Request r[2];
        CHECK_MPI(MPI_Irecv(in, 64, MPI_BYTE, peer, k, comms[t], &r[0]));
        CHECK_MPI(MPI_Isend(out, bytes_of(t, k), MPI_BYTE, peer, k, comms[t],
                            &r[1]));
        CHECK_MPI(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    }
    return NULL;
}

static void *watch(void *arg)
{
    (void)arg;
    unsigned long long v[2], l;
    while (!atomic_load(&done)) {
        for (int k = 0; k < 4; k++)
            T_RC(MPI_T_pvar_read(s, h[k], v), MPI_SUCCESS);
        T_RC(MPI_T_pvar_read(s, len, &l), MPI_SUCCESS);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, tp, count;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    CHECK(provided == MPI_THREAD_MULTIPLE, "provided %d", provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    T_RC(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &tp), MPI_SUCCESS);
    T_RC(MPI_T_pvar_session_create(&s), MPI_SUCCESS);
    for (int k = 0; k < 4; k++) {
        int i;
        T_RC(MPI_T_pvar_get_index(names[k], MPI_T_PVAR_CLASS_COUNTER, &i),
             MPI_SUCCESS);
        MPI_Comm w = MPI_COMM_WORLD;
        T_RC(MPI_T_pvar_handle_alloc(s, i, &w, &h[k], &count), MPI_SUCCESS);
    }
    int i;
    T_RC(MPI_T_pvar_get_index("shmpi_unexpected_length",
                              MPI_T_PVAR_CLASS_LEVEL, &i),
         MPI_SUCCESS);
    T_RC(MPI_T_pvar_handle_alloc(s, i, NULL, &len, &count), MPI_SUCCESS);
    for (int t = 0; t < THREADS; t++)
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comms[t]));
    T_RC(MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);

    pthread_t th[THREADS], w;
    CHECK(pthread_create(&w, NULL, watch, NULL) == 0, "pthread_create");
    for (int t = 0; t < THREADS; t++)
        CHECK(pthread_create(&th[t], NULL, talk, (void *)(long)t) == 0,
              "pthread_create");
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);
    atomic_store(&done, 1);
    pthread_join(w, NULL);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    unsigned long long bytes = 0, v[2], want[4], l;
    for (int t = 0; t < THREADS; t++)
        for (int k = 0; k < N; k++)
            bytes += (unsigned long long)bytes_of(t, k);
    want[0] = want[2] = THREADS * N;
    want[1] = want[3] = bytes;
    for (int k = 0; k < 4; k++) {
        T_RC(MPI_T_pvar_read(s, h[k], v), MPI_SUCCESS);
        CHECK(v[1 - rank] == want[k] && v[rank] == 0,
              "%s: %llu to/from the peer (expected %llu), %llu to/from self",
              names[k], v[1 - rank], want[k], v[rank]);
    }
    T_RC(MPI_T_pvar_read(s, len, &l), MPI_SUCCESS);
    CHECK(l == 0, "unexpected length %llu after every receive", l);
    for (int t = 0; t < THREADS; t++)
        CHECK_MPI(MPI_Comm_free(&comms[t]));
    T_RC(MPI_T_pvar_session_free(&s), MPI_SUCCESS);
    T_RC(MPI_T_finalize(), MPI_SUCCESS);
    MPI_Finalize();
    return 0;
}
