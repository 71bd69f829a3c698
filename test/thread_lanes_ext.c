/* thread_lanes_ext: four threads per rank stream at once on four duplicates of MPI_COMM_WORLD, which the performance variable shmpi_comm_lane shows in distinct point-to-point lanes (as many as SHMPI_LANES, read through its control variable, allows); every message is checked, in order. */
/* shmpi-test: np=2 timeout=120 ext threads */
/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Rank 0's thread t sends rank 1's thread t a stream on comm[t]: small
 * messages (eager, the hot ring once the pair is busy) and every
 * sixteenth a large one (rendezvous), each carrying (t, i); rank 1's
 * thread checks each arrives whole and in order (non-overtaking within
 * a communicator, MPI-3.1 3.5), then answers once.  Successive dups get
 * successive lanes (shmpi_pt2pt(7)): with SHMPI_LANES >= 4 the four are
 * pairwise distinct, with fewer lanes they share as the count says.
 */
#include "check.h"
#include "thread_multiple.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 4
#define MSGS 1000
#define SMALL 8
#define LARGE (64 * 1024)

static int rank;
static MPI_Comm comm[THREADS];

/* SHMPI_LANES, through its control variable: an enumeration whose item
   names are the counts. */
static int lanes(void)
{
    int i, v, len = 16, verb, bind, scope;
    MPI_Datatype dt;
    MPI_T_enum e;
    char name[16];
    T_RC(MPI_T_cvar_get_index("SHMPI_LANES", &i), MPI_SUCCESS);
    T_RC(MPI_T_cvar_get_info(i, NULL, NULL, &verb, &dt, &e, NULL, NULL,
                             &bind, &scope),
         MPI_SUCCESS);
    MPI_T_cvar_handle h;
    int count;
    T_RC(MPI_T_cvar_handle_alloc(i, NULL, &h, &count), MPI_SUCCESS);
    T_RC(MPI_T_cvar_read(h, &v), MPI_SUCCESS);
    T_RC(MPI_T_cvar_handle_free(&h), MPI_SUCCESS);
    int value;
    T_RC(MPI_T_enum_get_item(e, v, &value, name, &len), MPI_SUCCESS);
    return atoi(name);
}

/* The lane of each of comm[], through the performance variable bound
   to a communicator. */
static void lanes_of(int out[THREADS])
{
    MPI_T_pvar_session s;
    int i, count;
    T_RC(MPI_T_pvar_get_index("shmpi_comm_lane", MPI_T_PVAR_CLASS_GENERIC,
                              &i),
         MPI_SUCCESS);
    T_RC(MPI_T_pvar_session_create(&s), MPI_SUCCESS);
    MPI_T_pvar_handle h;
    T_RC(MPI_T_pvar_handle_alloc(s, i, NULL, &h, &count),
         MPI_T_ERR_INVALID_HANDLE);
    for (int t = 0; t < THREADS; t++) {
        unsigned long long v = ~0ull;
        T_RC(MPI_T_pvar_handle_alloc(s, i, &comm[t], &h, &count),
             MPI_SUCCESS);
        T_RC(MPI_T_pvar_read(s, h, &v), MPI_SUCCESS);
        T_RC(MPI_T_pvar_handle_free(s, &h), MPI_SUCCESS);
        out[t] = (int)v;
    }
    T_RC(MPI_T_pvar_session_free(&s), MPI_SUCCESS);
}

static void fill(unsigned char *b, size_t n, int t, int i)
{
    for (size_t k = 0; k < n; k++)
        b[k] = (unsigned char)(t * 31 + i * 7 + k);
}

static void *stream(void *arg)
{
    int t = *(int *)arg;
    unsigned char *buf = malloc(LARGE);
    CHECK(buf != NULL, "no memory");
    for (int i = 0; i < MSGS; i++) {
        size_t n = i % 16 == 15 ? LARGE : SMALL;
        if (rank == 0) {
            fill(buf, n, t, i);
            CHECK_MPI(MPI_Send(buf, (int)n, MPI_BYTE, 1, i, comm[t]));
            continue;
        }
        MPI_Status st;
        int got;
        CHECK_MPI(MPI_Recv(buf, LARGE, MPI_BYTE, 0, MPI_ANY_TAG, comm[t],
                           &st));
        CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &got));
        CHECK(st.MPI_TAG == i && (size_t)got == n,
              "thread %d: message %d came as tag %d, %d bytes", t, i,
              st.MPI_TAG, got);
        for (size_t k = 0; k < n; k++)
            CHECK(buf[k] == (unsigned char)(t * 31 + i * 7 + k),
                  "thread %d message %d: byte %zu is %u", t, i, k, buf[k]);
    }
    int done = t;
    if (rank == 1)
        CHECK_MPI(MPI_Send(&done, 1, MPI_INT, 0, MSGS, comm[t]));
    else
        CHECK_MPI(MPI_Recv(&done, 1, MPI_INT, 1, MSGS, comm[t],
                           MPI_STATUS_IGNORE));
    CHECK(done == t, "thread %d: the answer is %d", t, done);
    free(buf);
    return NULL;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    int provided;
    T_RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int t = 0; t < THREADS; t++)
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm[t]));
    int n = lanes(), lane[THREADS];
    CHECK(n >= 1 && n <= 16 && (n & (n - 1)) == 0, "SHMPI_LANES is %d", n);
    lanes_of(lane);
    for (int t = 0; t < THREADS; t++) {
        CHECK(lane[t] >= 0 && lane[t] < n, "comm %d: lane %d of %d", t,
              lane[t], n);
        for (int u = 0; u < t; u++)
            CHECK((lane[t] == lane[u]) == (t % n == u % n),
                  "comms %d and %d: lanes %d and %d of %d", u, t, lane[u],
                  lane[t], n);
    }
    int args[THREADS];
    for (int t = 0; t < THREADS; t++)
        args[t] = t;
    mt_run(THREADS, stream, args, sizeof args[0]);
    for (int t = 0; t < THREADS; t++)
        CHECK_MPI(MPI_Comm_free(&comm[t]));
    T_RC(MPI_T_finalize(), MPI_SUCCESS);
    CHECK_MPI(MPI_Finalize());
    return 0;
}
