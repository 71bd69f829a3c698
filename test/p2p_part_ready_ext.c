/* p2p_part_ready_ext: MPI_Pready_range and MPI_Pready_list ready exactly the partitions they name: each round the sender readies a list of partitions out of order, then ranges for the rest, and the receiver, which checks with MPI_Parrived that each listed partition arrived before it tells the sender to go on, gets all the data. */
/* shmpi-test: np=2 timeout=60 ext */
/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#define PARTS 10
#define COUNT 7
#define ROUNDS 30

static const int list[4] = {7, 2, 9, 4};

static void sender(void)
{
    static short out[PARTS * COUNT];
    MPI_Request r;
    CHECK_MPI(MPI_Psend_init(out, PARTS, COUNT, MPI_SHORT, 1, 3,
                             MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    for (int round = 0; round < ROUNDS; round++) {
        CHECK_MPI(MPI_Start(&r));
        for (int i = 0; i < PARTS * COUNT; i++)
            out[i] = (short)(round * 100 + i);
        CHECK_MPI(MPI_Pready_list(4, list, r));
        CHECK_MPI(MPI_Recv(NULL, 0, MPI_INT, 1, 4, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Pready_range(0, 1, r));
        CHECK_MPI(MPI_Pready(3, r));
        CHECK_MPI(MPI_Pready_range(5, 6, r));
        CHECK_MPI(MPI_Pready_range(8, 8, r));
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    }
    CHECK_MPI(MPI_Request_free(&r));
}

static void receiver(void)
{
    static short in[PARTS * COUNT];
    MPI_Request r;
    CHECK_MPI(MPI_Precv_init(in, PARTS, COUNT, MPI_SHORT, 0, 3,
                             MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    for (int round = 0; round < ROUNDS; round++) {
        memset(in, 0, sizeof in);
        CHECK_MPI(MPI_Start(&r));
        for (int k = 0; k < 4; k++) {
            int flag = 0;
            while (!flag)
                CHECK_MPI(MPI_Parrived(r, list[k], &flag));
        }
        for (int p = 0; p < PARTS; p++) {
            int flag, listed = p == 7 || p == 2 || p == 9 || p == 4;
            CHECK_MPI(MPI_Parrived(r, p, &flag));
            CHECK(flag == listed, "round %d: partition %d arrived %d",
                  round, p, flag);
        }
        CHECK_MPI(MPI_Send(NULL, 0, MPI_INT, 0, 4, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        for (int i = 0; i < PARTS * COUNT; i++)
            CHECK(in[i] == round * 100 + i, "round %d: in[%d] = %d", round,
                  i, in[i]);
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
