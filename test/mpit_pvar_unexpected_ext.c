/* mpit_pvar_unexpected_ext: shmpi's unexpected-queue variables - K messages sent before their receives are posted read as shmpi_unexpected_length K (and shmpi_unexpected_peak K, shmpi_unexpected_bytes at least their K * B bytes) once they have arrived, 0 (and 0 bytes, the peak kept) after they are received; a later smaller burst leaves the peak alone, a larger one raises it; MPI_Mprobe'd messages leave the queue. */
/* shmpi-test: np=2 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#define B 100

static MPI_T_pvar_session s;
static MPI_T_pvar_handle len, peak, bytes;

static MPI_T_pvar_handle handle(const char *name, int var_class)
{
    int i = -1, count = 0, cont, ro;
    T_RC(MPI_T_pvar_get_index(name, var_class, &i), MPI_SUCCESS);
    T_RC(MPI_T_pvar_get_info(i, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                             NULL, NULL, &ro, &cont, NULL),
         MPI_SUCCESS);
    CHECK(cont && ro, "%s: continuous and read-only", name);
    MPI_T_pvar_handle h;
    T_RC(MPI_T_pvar_handle_alloc(s, i, NULL, &h, &count), MPI_SUCCESS);
    CHECK(count == 1, "%s: count %d", name, count);
    return h;
}

static unsigned long long get(MPI_T_pvar_handle h)
{
    unsigned long long v = 0;
    T_RC(MPI_T_pvar_read(s, h, &v), MPI_SUCCESS);
    return v;
}

/* Rank 0 sends k messages of B bytes, tags 0..k-1, before rank 1 posts
   a receive: rank 1 probes for the last (its arrival means the others
   arrived: one sender, one communicator, in order), reads, receives
   them all, reads again. */
static void burst(int rank, int k, unsigned long long want_peak)
{
    char buf[B] = {0};
    if (rank == 0) {
        for (int t = 0; t < k; t++)
            CHECK_MPI(MPI_Send(buf, B, MPI_BYTE, 1, t, MPI_COMM_WORLD));
    } else {
        CHECK(get(len) == 0, "before: length %llu", get(len));
        CHECK_MPI(MPI_Probe(0, k - 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(get(len) == (unsigned long long)k, "length %llu, sent %d",
              get(len), k);
        CHECK(get(peak) == want_peak, "peak %llu, expected %llu", get(peak),
              want_peak);
        CHECK(get(bytes) >= (unsigned long long)k * B, "held %llu bytes",
              get(bytes));
        /* one taken by MPI_Mprobe is off the queue */
        MPI_Message m;
        CHECK_MPI(MPI_Mprobe(0, 0, MPI_COMM_WORLD, &m, MPI_STATUS_IGNORE));
        CHECK(get(len) == (unsigned long long)k - 1, "after Mprobe: %llu",
              get(len));
        CHECK_MPI(MPI_Mrecv(buf, B, MPI_BYTE, &m, MPI_STATUS_IGNORE));
        for (int t = 1; t < k; t++)
            CHECK_MPI(MPI_Recv(buf, B, MPI_BYTE, 0, t, MPI_COMM_WORLD,
                               MPI_STATUS_IGNORE));
        CHECK(get(len) == 0, "after: length %llu", get(len));
        CHECK(get(bytes) == 0, "after: %llu bytes held", get(bytes));
        CHECK(get(peak) == want_peak, "after: peak %llu", get(peak));
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

int main(int argc, char **argv)
{
    int provided, rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    T_RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);
    T_RC(MPI_T_pvar_session_create(&s), MPI_SUCCESS);
    len = handle("shmpi_unexpected_length", MPI_T_PVAR_CLASS_LEVEL);
    peak = handle("shmpi_unexpected_peak", MPI_T_PVAR_CLASS_HIGHWATERMARK);
    bytes = handle("shmpi_unexpected_bytes", MPI_T_PVAR_CLASS_SIZE);
    unsigned long long p0 = get(peak);
    burst(rank, 20, p0 > 20 ? p0 : 20);
    burst(rank, 5, p0 > 20 ? p0 : 20);
    burst(rank, 30, p0 > 30 ? p0 : 30);
    T_RC(MPI_T_pvar_reset(s, len), MPI_T_ERR_PVAR_NO_WRITE);
    T_RC(MPI_T_pvar_start(s, peak), MPI_T_ERR_PVAR_NO_STARTSTOP);
    T_RC(MPI_T_pvar_session_free(&s), MPI_SUCCESS);
    T_RC(MPI_T_finalize(), MPI_SUCCESS);
    MPI_Finalize();
    return 0;
}
