/* p2p_part_arrived_ext: a partition readied alone reaches the receiver before the others are ready: the receiver polls MPI_Parrived until partition 0 has arrived while the sender has readied nothing else (it waits for the receiver's word before readying the rest), sees the unready partitions not arrived, and then the rest arrive one by one; MPI_Parrived of a null or inactive request says arrived. */
/* shmpi-test: np=2 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#define PARTS 6
#define COUNT 1000
#define ROUNDS 20

static void sender(void)
{
    static double out[PARTS * COUNT];
    MPI_Request r;
    CHECK_MPI(MPI_Psend_init(out, PARTS, COUNT, MPI_DOUBLE, 1, 7,
                             MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    for (int round = 0; round < ROUNDS; round++) {
        CHECK_MPI(MPI_Start(&r));
        for (int p = 0; p < PARTS; p++) {
            for (int i = 0; i < COUNT; i++)
                out[p * COUNT + i] = round * 1e6 + p * COUNT + i;
            CHECK_MPI(MPI_Pready(p, r));
            /* the receiver saw partition p before p + 1 is ready */
            int seen;
            CHECK_MPI(MPI_Recv(&seen, 1, MPI_INT, 1, 8, MPI_COMM_WORLD,
                               MPI_STATUS_IGNORE));
            CHECK(seen == p, "round %d: receiver reports %d for %d", round,
                  seen, p);
        }
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    }
    CHECK_MPI(MPI_Request_free(&r));
}

static void receiver(void)
{
    static double in[PARTS * COUNT];
    MPI_Request r;
    int flag;
    CHECK_MPI(MPI_Parrived(MPI_REQUEST_NULL, 0, &flag));
    CHECK(flag, "MPI_Parrived of MPI_REQUEST_NULL: not arrived");
    CHECK_MPI(MPI_Precv_init(in, PARTS, COUNT, MPI_DOUBLE, 0, 7,
                             MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    CHECK_MPI(MPI_Parrived(r, 0, &flag));
    CHECK(flag, "MPI_Parrived of an inactive request: not arrived");
    for (int round = 0; round < ROUNDS; round++) {
        CHECK_MPI(MPI_Start(&r));
        for (int p = 0; p < PARTS; p++) {
            flag = 0;
            while (!flag) /* hangs if p moves only with the others */
                CHECK_MPI(MPI_Parrived(r, p, &flag));
            for (int i = 0; i < COUNT; i++)
                CHECK(in[p * COUNT + i] == round * 1e6 + p * COUNT + i,
                      "round %d partition %d: element %d is %g", round, p,
                      i, in[p * COUNT + i]);
            for (int q = p + 1; q < PARTS; q++) {
                CHECK_MPI(MPI_Parrived(r, q, &flag));
                CHECK(!flag, "round %d: partition %d arrived before it was "
                      "ready", round, q);
            }
            CHECK_MPI(MPI_Send(&p, 1, MPI_INT, 0, 8, MPI_COMM_WORLD));
        }
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Parrived(r, 0, &flag));
        CHECK(flag, "MPI_Parrived after the wait: not arrived");
    }
    CHECK_MPI(MPI_Request_free(&r));
}

int main(int argc, char **argv)
{
    int rank;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    if (rank == 0)
        sender();
    else
        receiver();
    CHECK_MPI(MPI_Finalize());
    return 0;
}
